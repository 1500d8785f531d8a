/*
 * A kernel typedef is a type name without a module: (uint) and (u_int)
 * are casts, as DTrace's lexer looks names up in every module's types.
 * A parenthesized variable stays an expression.
 */
#pragma D option quiet

BEGIN
{
	x = -12345;
	printf("%d %d %d\n", (uint)x, (u_int)-1, (x) + 1);
	exit(0);
}
