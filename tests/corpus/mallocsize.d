#!/usr/sbin/dtrace -s
/*
 * mallocsize.d -- malloc request sizes, as a power-of-two histogram,
 * and the callers of the big ones.
 *
 * USAGE: mallocsize.d -c command
 */
#pragma D option quiet

pid$target::malloc:entry
{
	@sizes = quantize(arg0);
}

pid$target::malloc:entry
/arg0 >= 65536/
{
	@big[ustack()] = count();
}

dtrace:::END
{
	printf("malloc sizes (bytes):\n");
	printa(@sizes);
	printa(@big);
}
