/*
 * After exit(), no later clause of the same firing runs, as in DTrace;
 * END still runs, and so do its clauses after an exit() of its own.
 * @@args: -q
 */
BEGIN
{
	exit(0);
}

BEGIN
{
	printf("not reached: a BEGIN clause after exit()\n");
}

END
{
	printf("END runs\n");
	exit(0);
}

END
{
	printf("and END's later clauses too\n");
}
