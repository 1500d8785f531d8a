#!/usr/sbin/dtrace -s
/*
 * procsystime.d -- system call counts and times of one command, from its
 * main() on, in the DTraceToolkit's procsystime manner: OPT_* inlines
 * choose the reports, and each line that feeds or prints one is an
 * "OPT_x ? action : 1;" statement.
 *
 * USAGE: procsystime.d -c command [options]
 *
 *   options is a sum of:  1  counts (the default, when 0)
 *                         2  elapsed times, nanoseconds
 *                         4  on-CPU times, nanoseconds
 */
#pragma D option quiet
#pragma D option defaultargs
#pragma D option evaltime=main

inline int OPT_counts  = $1 == 0 || ($1 & 1) != 0;
inline int OPT_elapsed = ($1 & 2) != 0;
inline int OPT_cpu     = ($1 & 4) != 0;

dtrace:::BEGIN
{
	printf("Tracing... Hit Ctrl-C to end...\n");
}

syscall:::entry
/pid == $target/
{
	self->start = timestamp;
	self->vstart = vtimestamp;
}

syscall:::return
/self->start/
{
	this->elapsed = timestamp - self->start;
	this->oncpu = vtimestamp - self->vstart;
	OPT_counts ? @Counts[probefunc] = count() : 1;
	OPT_elapsed ? @Elapsed[probefunc] = sum(this->elapsed) : 1;
	OPT_elapsed ? @Elapsed["TOTAL:"] = sum(this->elapsed) : 1;
	OPT_cpu ? @CPU[probefunc] = sum(this->oncpu) : 1;
	OPT_cpu ? @CPU["TOTAL:"] = sum(this->oncpu) : 1;
	@Calls = count();
	@Slowest[probefunc] = max(this->elapsed);
	self->start = 0;
	self->vstart = 0;
}

dtrace:::END
{
	OPT_elapsed ? printf("\nElapsed Times for PID %d,\n\n", $target) : 1;
	OPT_elapsed ? printf("%16s %18s\n", "SYSCALL", "TIME (ns)") : 1;
	OPT_elapsed ? printa("%16s %@18d\n", @Elapsed) : 1;
	OPT_cpu ? printf("\nCPU Times for PID %d,\n\n", $target) : 1;
	OPT_cpu ? printf("%16s %18s\n", "SYSCALL", "TIME (ns)") : 1;
	OPT_cpu ? printa("%16s %@18d\n", @CPU) : 1;
	OPT_counts ? printf("\nSyscall Counts for PID %d,\n\n", $target) : 1;
	OPT_counts ? printf("%16s %18s\n", "SYSCALL", "COUNT") : 1;
	OPT_counts ? printa("%16s %@18d\n", @Counts) : 1;
	printa("\n%@d system calls returned\n", @Calls);
}
