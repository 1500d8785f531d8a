#!/usr/bin/env -S dscope -qs
/*
 * Who wakes whom?  Counts of wakeups by waker and woken program, for ten
 * seconds.  Usage: dscope -qs wakeups.d
 */
sched:::wakeup
{
	@[execname, stringof(args[1]->pr_fname)] = count();
}

tick-10s
{
	exit(0);
}
