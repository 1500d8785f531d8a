/* A pointer compares with a pointer or the constant 0, not with another
 * integer (dt_node_is_ptrcompat). */
BEGIN
{
	trace(curthread == 1);
	exit(0);
}
