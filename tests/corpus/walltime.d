#!/usr/sbin/dtrace -s
/*
 * walltime.d -- print the date as DTrace sees it, and exit.
 */
#pragma D option quiet

dtrace:::BEGIN
{
	printf("%Y\n", walltimestamp);
	printf("seconds %d\n", walltimestamp / 1000000000);
	exit(0);
}
