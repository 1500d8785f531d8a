/*
 * A struct member of a D variable takes a whole struct of its own type,
 * copied byte for byte.
 */
#pragma D option quiet

struct pt { int x, y; };
struct seg { struct pt a, b; } s;
this struct pt p;

BEGIN
{
	this->p.x = 3;
	this->p.y = 4;
	s.b = this->p;
	this->p.x = 9;
	s.a = s.b;
	printf("%d %d %d %d\n", s.a.x, s.a.y, s.b.x, s.b.y);
	exit(0);
}
