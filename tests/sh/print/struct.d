/* print(): a script struct in alloca() memory, by type: zero members left
 * out, char arrays to their NUL, enums by name, nested aggregates */
#pragma D option quiet

enum color { RED = 1, GREEN = 2 };
struct inner { short s; unsigned char u; };
struct rec {
	int a;
	char name[6];
	struct inner in;
	enum color c;
	long zero;
	int arr[3];
};

BEGIN
{
	r = (struct rec *)alloca(sizeof (struct rec));
	r->a = -7;
	r->name[0] = 'h';
	r->name[1] = 'i';
	r->in.s = 300;
	r->c = GREEN;
	r->arr[1] = 5;
	print(r);
	exit(0);
}
