/* print() stops at printsize with "...": pending closes come after it */
#pragma D option quiet
#pragma D option printsize=12

struct pair { long x; struct { int y; int z; } in; long w; };

BEGIN
{
	p = (struct pair *)alloca(sizeof (struct pair));
	p->x = 1;
	p->in.y = 2;
	p->in.z = 3;
	p->w = 4;
	print(p);
	setopt("printsize", "16");
	print(p);
	exit(0);
}
