#!/usr/bin/env -S dscope -qs
/*
 * Why is this process going off CPU, in its own code?  Time off CPU by
 * the user stack that blocked -- the program's functions, through libc
 * without frame pointers (.eh_frame) -- and the kernel stack under it.
 * Nanoseconds, summed: the biggest waits print last, ready for a flame
 * graph (stackcollapse).  Usage: dscope -qs offcpu-user.d -c CMD (or -p)
 */
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
