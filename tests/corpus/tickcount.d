#!/usr/sbin/dtrace -s
/*
 * tickcount.d -- count ticks,
 * stopping after a given number of ticks.  The counter is created by
 * its first ++, as D allows.
 *
 * USAGE: tickcount.d ticks
 */
#pragma D option quiet

profile:::tick-10ms
{
	ticks++;
}

profile:::tick-10ms
/ticks == $1/
{
	printf("%d ticks\n", ticks);
	exit(0);
}
