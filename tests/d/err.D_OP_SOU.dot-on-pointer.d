/*
 * . must be applied to a struct or union; a pointer to one is D_OP_SOU.
 */
BEGIN
{
	trace(curthread.pid);
}
