#!/usr/sbin/dtrace -s
/*
 * funcargs.d -- a function's arguments and return values, summed and
 * counted.
 *
 * USAGE: funcargs.d -c command
 */
#pragma D option quiet

pid$target:a.out:chore:entry
{
	@sums["argument sum"] = sum(arg0);
	@calls = count();
}

pid$target:a.out:chore:return
{
	@ret[arg1] = count();
	@sums["return sum"] = sum(arg1);
}

dtrace:::END
{
	printa("%-14s %@d\n", @sums);
	printa("calls          %@d\n", @calls);
	printa("returned %-3d %@d times\n", @ret);
}
