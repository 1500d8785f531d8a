#!/usr/sbin/dtrace -s
/*
 * countdown.d -- count down from the first argument, one tick at a
 * time, then exit.  The tick rate sets the pace, not the output.
 *
 * USAGE: countdown.d N
 */
#pragma D option quiet

dtrace:::BEGIN
{
	i = $1;
	printf("counting down from %d\n", i);
}

profile:::tick-10ms
/i > 0/
{
	printf("%d\n", i);
	i--;
}

profile:::tick-10ms
/i == 0/
{
	printf("liftoff!\n");
	exit(0);
}
