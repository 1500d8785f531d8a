/*
 * strtok()'s saved position belongs to the clause: a later clause of
 * the same firing has nothing to go on from, and strtok(NULL, d) there
 * is an invalid address (fault 1), as in DTrace.
 */
#pragma D option quiet

BEGIN
{
	printf("%s\n", strtok("a b", " "));
}

BEGIN
{
	printf("%s\n", strtok(NULL, " "));
}

ERROR
{
	printf("fault %d\n", arg4);
	exit(0);
}
