#!/usr/bin/env -S dscope -qs
/*
 * Why is this process going off CPU, and for how long?  Kernel stacks of
 * the process's threads at the moment they left the CPU, with how long
 * they stayed off.  Usage: dscope -qs offcpu.d -p PID  (or -c CMD)
 */
sched:::off-cpu
/pid == $target/
{
	self->ts = timestamp;
}

sched:::on-cpu
/self->ts/
{
	@[stack()] = quantize(timestamp - self->ts);
	self->ts = 0;
}
