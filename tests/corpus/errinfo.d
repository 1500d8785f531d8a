#!/usr/sbin/dtrace -s
/*
 * errinfo.d -- which system calls fail, and with which errno?
 *
 * USAGE: errinfo.d -c command
 */
#pragma D option quiet

syscall:::return
/pid == $target && errno != 0/
{
	@err[execname, probefunc, errno] = count();
}

dtrace:::END
{
	printf("%16s %16s %5s %6s\n", "EXEC", "SYSCALL", "ERR", "COUNT");
	printa("%16s %16s %5d %@6d\n", @err);
}
