#!/usr/sbin/dtrace -s
/*
 * progeny.d -- system calls of a command and all its descendants, by
 * program name.
 *
 * USAGE: progeny.d -c command
 */
#pragma D option quiet

syscall::execve:entry
/progenyof($target)/
{
	@execs[copyinstr(arg0)] = count();
}

proc:::exit
/progenyof($target)/
{
	@exits[execname] = count();
}

dtrace:::END
{
	printa("exec %s %@d\n", @execs);
	printa("exit %s %@d\n", @exits);
}
