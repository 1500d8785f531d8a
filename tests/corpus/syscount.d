#!/usr/sbin/dtrace -s
/*
 * syscount.d -- count system calls by name for one command.
 *
 * USAGE: syscount.d -c command
 */
#pragma D option quiet

dtrace:::BEGIN
{
	printf("Tracing... Hit Ctrl-C to end.\n");
}

syscall:::entry
/pid == $target/
{
	@num[probefunc] = count();
}

dtrace:::END
{
	printf("%-24s %8s\n", "SYSCALL", "COUNT");
	printa("%-24s %@8d\n", @num);
}
