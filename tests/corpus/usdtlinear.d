#!/usr/sbin/dtrace -s
/*
 * usdtlinear.d -- a USDT argument's distribution in linear buckets of
 * ten, and its extremes.
 *
 * USAGE: usdtlinear.d -c command
 */
#pragma D option quiet

usdtprog$target:::fire
{
	@dist = lquantize(arg0, 0, 100, 10);
	@lo = min(arg3);
	@hi = max(arg1);
	@mean = avg(arg0);
}

dtrace:::END
{
	printa("min of arg3 %@d, max of arg1 %@d, mean of arg0 %@d\n",
	    @lo, @hi, @mean);
	printa(@dist);
}
