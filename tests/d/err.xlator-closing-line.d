/*
 * A translator is checked as a whole once it is read, so its errors
 * name the line of its closing brace, as DTrace's do.
 */
struct in { int a; };
struct out;

translator struct out < struct in *p >
{
	x = p->a;
};
