#!/usr/sbin/dtrace -s
/*
 * sizestats.d -- write(2) sizes: count, sum, mean, extremes and spread,
 * all in one printa.
 *
 * USAGE: sizestats.d -c command
 */
#pragma D option quiet

syscall::write:entry
/pid == $target && arg0 > 2/
{
	@n = count();
	@total = sum(arg2);
	@mean = avg(arg2);
	@lo = min(arg2);
	@hi = max(arg2);
	@sd = stddev(arg2);
}

dtrace:::END
{
	printf("%6s %8s %6s %6s %6s %6s\n", "COUNT", "BYTES", "AVG", "MIN",
	    "MAX", "STDDEV");
	printa("%@6d %@8d %@6d %@6d %@6d %@6d\n", @n, @total, @mean, @lo, @hi,
	    @sd);
}
