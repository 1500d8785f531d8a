/* beside a string, ?: takes a string, a char array or pointer, or a null
 * pointer constant (dt_cook_op3); 1 is none of them */
BEGIN
{
	trace(1 ? "a" : 1);
}
