/* Shifts, %, &, | and ^ take integers only, not pointers (dt_cook_op2,
 * dt_node_is_integer). */
BEGIN
{
	trace(curthread << 2);
	exit(0);
}
