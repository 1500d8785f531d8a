#!/usr/sbin/dtrace -s
/*
 * exitstatus.d -- how did the command's children end?  Their exit
 * status, from exit_group(2)'s argument.
 *
 * USAGE: exitstatus.d -c command
 */
#pragma D option quiet

syscall::exit_group:entry
/ppid == $target/
{
	@status[arg0] = count();
}

proc:::create
/pid == $target/
{
	@forks = count();
}

dtrace:::END
{
	printa("forked %@d children\n", @forks);
	printa("status %d: %@d\n", @status);
}
