/* ! wants a scalar operand. */
BEGIN
{
	y = !execname;
	exit(0);
}
