/* beside a string, ?: takes a string, a char array or pointer, or a null
 * pointer constant (dt_cook_op3); 1 is none of them.  (A constant
 * condition would be folded first, dt_node_op3, and the arms never
 * compared: the condition is known only when the probe fires.) */
BEGIN
{
	trace(timestamp ? "a" : 1);
}
