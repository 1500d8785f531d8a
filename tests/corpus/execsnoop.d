#!/usr/sbin/dtrace -s
/*
 * execsnoop.d -- new programs as they run, with their arguments: the
 * command given with -c and everything it starts.
 *
 * USAGE: execsnoop.d -c command
 */
#pragma D option quiet

dtrace:::BEGIN
{
	printf("%-10s %s\n", "COMM", "ARGS");
}

proc:::exec-success
/pid == $target || ppid == $target/
{
	printf("%-10s %s\n", execname, curpsinfo->pr_psargs);
	@execs = count();
}

dtrace:::END
{
	printa("%@d execs\n", @execs);
}
