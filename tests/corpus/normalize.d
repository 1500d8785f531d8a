#!/usr/sbin/dtrace -s
/*
 * normalize.d -- system calls per 100 calls of the command's busiest
 * one: counts normalized by a factor given as the first argument.
 *
 * USAGE: normalize.d -c command factor
 */
#pragma D option quiet

syscall::getppid:entry,
syscall::exit_group:entry
/pid == $target/
{
	@calls[probefunc] = count();
}

dtrace:::END
{
	normalize(@calls, $1);
	printa("%-12s %@d\n", @calls);
	denormalize(@calls);
	printa("raw %-12s %@d\n", @calls);
}
