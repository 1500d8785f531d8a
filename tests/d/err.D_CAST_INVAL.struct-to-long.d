/* A struct casts to no scalar type (dt_cook_op2's DT_TOK_LPAR). */
BEGIN
{
	trace((long)*curthread);
	exit(0);
}
