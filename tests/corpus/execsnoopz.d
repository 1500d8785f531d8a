#!/usr/sbin/dtrace -s
/*
 * execsnoopz.d -- new programs with the zone (container) each runs in,
 * as the DTraceToolkit's execsnoop -Z prints them: the command given
 * with -c and everything it starts.
 *
 * USAGE: execsnoopz.d -c command
 */
#pragma D option quiet
#pragma D option switchrate=10hz

dtrace:::BEGIN
{
	printf("%-16s %5s %6s %6s %s\n", "ZONE", "UID", "PID", "PPID", "ARGS");
}

proc:::exec-success
/pid == $target || ppid == $target/
{
	printf("%-16s %5d %6d %6d %s\n", zonename, uid, pid, ppid,
	    curpsinfo->pr_psargs);
	@execs[zonename] = count();
}

dtrace:::END
{
	printa("%-16s %@d execs\n", @execs);
}
