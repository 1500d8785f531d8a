/* ustack()'s second argument, the string space, is a constant too
 * (dt_cg_stack_arg). */
BEGIN
{
	n = 64;
	ustack(5, n);
	exit(0);
}
