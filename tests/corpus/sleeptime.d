#!/usr/sbin/dtrace -s
/*
 * sleeptime.d -- how long does the command sleep in nanosleep, each
 * time it leaves the CPU there?  Milliseconds, linear buckets.
 *
 * USAGE: sleeptime.d -c command
 */
#pragma D option quiet

syscall::clock_nanosleep:entry,
syscall::nanosleep:entry
/pid == $target/
{
	self->insleep = 1;
}

sched:::off-cpu
/self->insleep/
{
	self->off = timestamp;
}

sched:::on-cpu
/self->off/
{
	this->ms = (timestamp - self->off) / 1000000;
	@ms = lquantize(this->ms, 0, 100, 10);
	@long = sum(this->ms >= 20 ? 1 : 0);
	self->off = 0;
}

syscall::clock_nanosleep:return,
syscall::nanosleep:return
/self->insleep/
{
	self->insleep = 0;
}

dtrace:::END
{
	printa("sleeps of 20 ms or more: %@d\n", @long);
	printa(@ms);
}
