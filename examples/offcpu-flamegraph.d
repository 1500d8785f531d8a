#!/usr/bin/env -S dscope -qs
/*
 * Where does this program wait?  Time off CPU by the user stack that
 * blocked and the kernel stack under it, in nanoseconds: the widths of
 * this flame graph are time spent asleep, not samples -- a lock, a read
 * from disk, a sleep -- which a CPU flame graph cannot show.
 *   dscope -qs offcpu-flamegraph.d -o offcpu.svg -c CMD   (or -p PID)
 * At on-cpu, stack() and ustack() are the returning thread's, where it
 * blocked (dscope(1), sched).
 */
#pragma D option oformat=svg

sched:::off-cpu
/pid == $target/
{
	self->ts = timestamp;
}

sched:::on-cpu
/self->ts/
{
	@[stack(), ustack()] = sum(timestamp - self->ts);
	self->ts = 0;
}
