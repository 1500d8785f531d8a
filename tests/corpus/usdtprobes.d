#!/usr/sbin/dtrace -s
/*
 * usdtprobes.d -- every USDT probe a program fires: how often, and the
 * sum of its first argument, side by side.
 *
 * USAGE: usdtprobes.d -c command
 */
#pragma D option quiet

usdtprog$target:::
{
	@count[probefunc, probename] = count();
	@first[probefunc, probename] = sum(arg0);
}

dtrace:::END
{
	printf("%-8s %-10s %6s %8s\n", "FUNC", "PROBE", "COUNT", "SUM(arg0)");
	printa("%-8s %-10s %@6d %@8d\n", @count, @first);
}
