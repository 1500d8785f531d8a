/* an inline names an expression, not a variable: the D library's cwd can
 * no more be assigned than a program's own inline (D_OP_WRITE) */
BEGIN
{
	cwd = "/tmp";
}
