#!/usr/sbin/dtrace -s
/*
 * scalltime.d -- how often, and how long, one system call takes in a
 * command, by program.  The system call is named on the command line.
 *
 * USAGE: scalltime.d -c command syscall
 *    eg, scalltime.d -c 'ls -l' openat
 */
#pragma D option quiet

dtrace:::BEGIN
{
	printf("Timing %s() in PID %d...\n", $$1, $target);
}

syscall::$$1:entry
/pid == $target/
{
	self->ts = timestamp;
}

syscall::$$1:return
/self->ts/
{
	@num[execname] = count();
	@avg[execname] = avg(timestamp - self->ts);
	self->ts = 0;
}

dtrace:::END
{
	printf("%-16s %8s %12s\n", "EXEC", "CALLS", "AVG(ns)");
	printa("%-16s %@8d %@12d\n", @num, @avg);
}
