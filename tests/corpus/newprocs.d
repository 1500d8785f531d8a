#!/usr/sbin/dtrace -s
/*
 * newprocs.d -- each new program, with the command line it was given
 * (the whole of it, not the 80 characters of pr_psargs on Solaris), and
 * its parent.
 *
 * USAGE: newprocs.d -c command
 */
#pragma D option quiet
#pragma D option strsize=1024

dtrace:::BEGIN
{
	printf("%6s %6s %s\n", "PID", "PPID", "ARGS");
}

proc:::exec-success
/pid == $target || ppid == $target/
{
	printf("%6d %6d %s\n", pid, ppid, execargs);
	@[execname] = count();
}

dtrace:::END
{
	printa("%-12s %@d\n", @);
}
