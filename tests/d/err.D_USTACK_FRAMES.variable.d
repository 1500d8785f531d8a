/* ustack()'s frame count is a positive constant, and its error is
 * ustack()'s own, D_USTACK_FRAMES (dt_cg_stack_arg), not stack()'s. */
BEGIN
{
	n = 5;
	ustack(n);
	exit(0);
}
