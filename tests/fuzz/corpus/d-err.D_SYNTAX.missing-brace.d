/* A clause body that never closes: a syntax error with its line. */
BEGIN
{
	printf("x");
