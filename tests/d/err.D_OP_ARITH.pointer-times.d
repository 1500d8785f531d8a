/* A pointer is a scalar but not arithmetic: * and / refuse it
 * (dt_cook_op2, dt_node_is_arith). */
BEGIN
{
	trace(curthread * 2);
	exit(0);
}
