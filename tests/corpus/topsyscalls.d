#!/usr/sbin/dtrace -s
/*
 * topsyscalls.d -- the three system calls a command makes most.
 *
 * USAGE: topsyscalls.d -c command
 */
#pragma D option quiet

syscall:::entry
/pid == $target/
{
	@top[probefunc] = count();
}

dtrace:::END
{
	trunc(@top, 3);
	printf("%-20s %s\n", "SYSCALL", "CALLS");
	printa("%-20s %@d\n", @top);
}
