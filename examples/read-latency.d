#!/usr/bin/env -S dscope -qs
/*
 * How long do reads take, per program?  Usage: dscope -qs read-latency.d
 * (Ctrl-C to print)
 */
syscall::read:entry
{
	self->ts = timestamp;
}

syscall::read:return
/self->ts/
{
	@[execname] = quantize(timestamp - self->ts);
	self->ts = 0;
}
