#!/usr/sbin/dtrace -s
/*
 * argsnoop.d -- the commands a command runs, each with its arguments as
 * ps(1) shows them, cut at 16 characters to fit a narrow column, and how
 * often each such line ran.
 *
 * USAGE: argsnoop.d -c command
 */
#pragma D option quiet
#pragma D option strsize=16

dtrace:::BEGIN
{
	printf("%-7s %-8s %s\n", "PID", "COMM", "ARGS");
}

proc:::exec-success
/ppid == $target/
{
	printf("%-7d %-8s %s\n", pid, execname, curpsinfo->pr_psargs);
	@runs[curpsinfo->pr_psargs] = count();
}

dtrace:::END
{
	printf("\n%-16s %s\n", "ARGS", "RUNS");
	printa("%-16s %@d\n", @runs);
}
