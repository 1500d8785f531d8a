#!/usr/sbin/dtrace -s
/*
 * funclat.d -- latency of a user function, named by the first
 * argument, in microseconds.
 *
 * USAGE: funclat.d -c command function
 */
#pragma D option quiet

pid$target:a.out:$1:entry
{
	self->ts = timestamp;
}

pid$target:a.out:$1:return
/self->ts/
{
	this->us = (timestamp - self->ts) / 1000;
	@dist[probefunc] = quantize(this->us);
	@slow[probefunc] = sum(this->us >= 1000);
	@n[probefunc] = count();
	self->ts = 0;
}

dtrace:::END
{
	printa("%s: %@d calls, %@d of 1 ms or more\n", @n, @slow);
	printa("%s (us)%@d\n", @dist);
}
