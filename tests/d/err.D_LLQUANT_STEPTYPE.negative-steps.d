/* llquantize()'s steps must be a positive constant (dt_node_is_posconst):
 * -10 is refused as to its type, before any check of its value. */
BEGIN
{
	@ = llquantize(1, 10, 0, 2, -10);
}
