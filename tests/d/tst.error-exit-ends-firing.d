/*
 * exit() in an ERROR clause ends tracing at the fault, as DTrace runs
 * the ERROR clauses there: the faulting firing's later clauses do not
 * run (neither their output nor their exit status), END does.
 */
#pragma D option quiet

BEGIN
{
	printf("first\n");
}

BEGIN
{
	trace(*(int *)NULL);
	printf("not reached\n");
}

BEGIN
{
	printf("a clause after the ERROR clause's exit()\n");
	exit(3);
}

ERROR
{
	printf("ERROR fault %d\n", arg4);
	exit(0);
}

END
{
	printf("END\n");
}
