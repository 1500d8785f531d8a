/* The same declaration twice is no redeclaration (dt_decl finds the same
 * kind and type, and keeps the variable): DTrace accepts it. */
#pragma D option quiet
int x;
int x;
string a[int];
string a[int];
self int t;
self int t;

BEGIN
{
	x = 2;
	a[1] = "one";
	self->t = 3;
	printf("%d %s %d\n", x, a[1], self->t);
	exit(0);
}
