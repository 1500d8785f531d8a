/*
 * system() is destructive (-w): the command runs with the formatted
 * arguments, and its output comes after everything traced before it.
 * @@args: -w
 */
#pragma D option quiet

BEGIN
{
	this->n = 41;
	printf("before\n");
	system("echo %s %d", probename, this->n + 1);
	printf("after\n");
	exit(0);
}
