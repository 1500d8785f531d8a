/* A string is no scalar: only a cast to its own type, to string or to
 * void takes it (dt_cook_op2's DT_TOK_LPAR). */
BEGIN
{
	trace((int)"10");
	exit(0);
}
