/* an alloca() pointer stored in a, then other pointers (D_ALLOCA_INCOMPAT at the
 * second clause, as dtrace-utils' funcs/alloca/err.D_ALLOCA_INCOMPAT.var-clash) */
#pragma D option quiet

BEGIN
{
	a = (char *) alloca(1);
}

BEGIN
{
	b = (char *) curthread;
	a = NULL;
	a = b + 5;
	trace(a);
	exit(0);
}
