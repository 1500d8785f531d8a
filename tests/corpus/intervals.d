#!/usr/sbin/dtrace -s
/*
 * intervals.d -- system calls per interval, printed and cleared each
 * interval, for a fixed number of intervals.
 *
 * USAGE: intervals.d intervals
 */
#pragma D option quiet

inline int WIDTH = 12;

dtrace:::BEGIN
{
	n = 0;
}

syscall:::entry
{
	@calls = count();
}

profile:::tick-20ms
{
	n = n + 1;
	printf("interval %d:", n);
	printa(" %@d syscalls\n", @calls);
	clear(@calls);
}

profile:::tick-20ms
/n == $1/
{
	printf("%-*s done\n", WIDTH, "intervals");
	exit(0);
}
