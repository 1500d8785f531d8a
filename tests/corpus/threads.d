#!/usr/sbin/dtrace -s
/*
 * threads.d -- threads and processes a command creates.
 *
 * USAGE: threads.d -c command
 */
#pragma D option quiet

proc:::lwp-create
/pid == $target/
{
	@made["threads"] = count();
}

proc:::create
/pid == $target/
{
	@made["processes"] = count();
}

proc:::lwp-exit
/pid == $target && tid != pid/
{
	@made["threads exited"] = count();
}

dtrace:::END
{
	printa("%-16s %@4d\n", @made);
}
