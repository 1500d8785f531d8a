#!/usr/sbin/dtrace -s
/*
 * wakeups.d -- who wakes the command up?
 *
 * USAGE: wakeups.d -c command
 */
#pragma D option quiet

sched:::wakeup
/args[1]->pr_pid == $target/
{
	@woken[stringof(args[1]->pr_fname)] = count();
}

sched:::on-cpu
/pid == $target/
{
	@oncpu = count();
}

dtrace:::END
{
	printa("%s woken %@d times\n", @woken);
	printa("on cpu %@d times\n", @oncpu);
}
