#!/usr/sbin/dtrace -s
/*
 * funccount.d -- count calls of each function in the program itself
 * (not its libraries).
 *
 * USAGE: funccount.d -c command
 */
#pragma D option quiet

dtrace:::BEGIN
{
	printf("Tracing %d... Hit Ctrl-C to end.\n", $target);
}

pid$target:a.out::entry
{
	@calls[probefunc] = count();
}

dtrace:::END
{
	printf("%-16s %8s\n", "FUNC", "COUNT");
	printa("%-16s %@8d\n", @calls);
}
