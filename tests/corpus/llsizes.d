#!/usr/sbin/dtrace -s
/*
 * llsizes.d -- malloc sizes on a log-linear scale: ten buckets per
 * power of ten, from 1 to 10^6.
 *
 * USAGE: llsizes.d -c command
 */
#pragma D option quiet

pid$target::malloc:entry
{
	@sizes = llquantize(arg0, 10, 0, 6, 10);
	@n = count();
}

dtrace:::END
{
	printa("%@d mallocs\n", @n);
	printa(@sizes);
}
