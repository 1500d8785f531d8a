/*
 * -> on a pointer to a struct that is only declared, never defined, is
 * D_OP_INCOMPLETE.
 */
struct later *p;

BEGIN
{
	trace(p->x);
}
