/* An aggregation has no address: dt_cook_op1 refuses & of it before it
 * looks at the operand as an expression. */
BEGIN
{
	@a = count();
	trace(&@a);
	exit(0);
}
