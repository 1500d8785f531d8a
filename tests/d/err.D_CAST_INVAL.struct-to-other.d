/*
 * A struct casts only to its own type (ctf_type_compat); to another
 * struct of the same shape it is an invalid cast.
 */
struct a { int v; } x;
struct b { int v; };

BEGIN
{
	trace(((struct b)x).v);
}
