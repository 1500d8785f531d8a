/* Unary minus wants an arithmetic operand. */
BEGIN
{
	n = -probeprov;
	exit(0);
}
