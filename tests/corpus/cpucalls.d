#!/usr/sbin/dtrace -s
/*
 * cpucalls.d -- a command's system calls by name: on each CPU, and on
 * all CPUs together, with the time they took.
 *
 * USAGE: cpucalls.d -c command
 */
#pragma D option quiet

dtrace:::BEGIN
{
	printf("Tracing %d... Hit Ctrl-C to end.\n", $target);
}

syscall:::entry
/pid == $target/
{
	@calls[probefunc, lltostr(cpu)] = count();
	@calls[probefunc, "ALL"] = count();
	self->ts = timestamp;
}

syscall:::return
/self->ts/
{
	this->ns = timestamp - self->ts;
	@time[probefunc, lltostr(cpu)] = sum(this->ns);
	@time[probefunc, "ALL"] = sum(this->ns);
	self->ts = 0;
}

dtrace:::END
{
	printf("%-16s %4s %8s %12s\n", "SYSCALL", "CPU", "CALLS", "NSECS");
	printa("%-16s %4s %@8d %@12d\n", @calls, @time);
}
