#!/usr/sbin/dtrace -s
/*
 * offcpustacks.d -- why does the command leave the CPU?  User stacks
 * at each off-CPU event, with the time spent away.
 *
 * USAGE: offcpustacks.d -c command
 */
#pragma D option quiet

sched:::off-cpu
/pid == $target/
{
	self->ts = timestamp;
	self->stack = 1;
	@count[ustack()] = count();
}

sched:::on-cpu
/self->ts/
{
	@away = sum(timestamp - self->ts);
	self->ts = 0;
}

dtrace:::END
{
	printa(@count);
	printa("total off-cpu: %@d ns\n", @away);
}
