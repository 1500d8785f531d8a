/*
 * trace() of a struct or union records its bytes, which print as a byte
 * dump (dtrace-utils' dt_print_trace: data traced by reference that is
 * not a string).
 */
#pragma D option quiet

struct pair {
	int a;
	short b;
} p;

union word {
	int i;
	char c[4];
} w;

BEGIN
{
	p.a = 0x41424344;
	p.b = 0x3132;
	w.i = 0x12345678;
	trace(p);
	trace(w);
	exit(0);
}
