/*
 * chill() over DTrace's chill_max (500 ms) is an illegal operation: the
 * clause is abandoned, ERROR fires, and tracing goes on.
 * @@args: -w -q
 */
BEGIN
{
	chill(600000000);
	printf("not reached\n");
}

ERROR
{
	printf("ERROR: fault %d\n", arg4);
}

BEGIN
{
	printf("still tracing\n");
	exit(0);
}
