/*
 * Every form of rate DTrace accepts: a frequency (any case), a time with
 * each suffix, a bare number (nanoseconds), a C base prefix.  END still
 * runs and the run ends with exit()'s status.
 * @@args: -x switchrate=10Hz -x aggrate=250msec -x statusrate=0x1000000
 * @@status: 3
 */
#pragma D option quiet
#pragma D option switchrate=100ms
#pragma D option statusrate=1000000ns
#pragma D option aggrate=1S
#pragma D option aggrate=2us

BEGIN
{
	@a = count();
	printf("begin\n");
	exit(3);
}

END
{
	printf("end\n");
}
