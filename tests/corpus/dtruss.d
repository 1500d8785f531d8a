#!/usr/sbin/dtrace -s
/*
 * dtruss.d -- the system calls of a command, as the DTraceToolkit's
 * dtruss traces them: each call with its return value, or with -c's
 * option 1, a count and total time per call at the end.  The probes are
 * evaluated at the command's exec (dtruss passes -x evaltime=exec).
 *
 * USAGE: dtruss.d -c command [options]
 *
 *   options is a sum of:  1  counts only
 *                         2  print elapsed times (us)
 */
#pragma D option quiet
#pragma D option defaultargs
#pragma D option evaltime=exec
#pragma D option switchrate=10hz

inline int OPT_counts  = $1 & 1;
inline int OPT_elapsed = ($1 & 2) != 0;
inline int OPT_printid = 0;

dtrace:::BEGIN
/!OPT_counts/
{
	OPT_printid ? printf("%-9s ", "PID/LWP") : 1;
	OPT_elapsed ? printf("%7s ", "ELAPSD") : 1;
	printf("SYSCALL(args) \t\t = return\n");
}

syscall:::entry
/pid == $target/
{
	self->start = timestamp;
	self->arg0 = arg0;
}

syscall:::return
/self->start/
{
	this->elapsed = (timestamp - self->start) / 1000;
	OPT_printid && !OPT_counts ? printf("%5d/%d:  ", pid, tid) : 1;
	OPT_elapsed && !OPT_counts ? printf("%7d ", this->elapsed) : 1;
	!OPT_counts ? printf("%s(0x%X)\t\t = %d\n", probefunc, self->arg0,
	    (int)arg0) : 1;
}

/* as dtruss does, the counts in a clause of their own: an aggregation
 * only ever named under an option would not exist without it */
syscall:::return
/self->start && OPT_counts/
{
	@calls[probefunc] = count();
	@times[probefunc] = sum(this->elapsed);
}

syscall:::return
/self->start/
{
	self->start = 0;
	self->arg0 = 0;
}

dtrace:::END
/OPT_counts/
{
	printf("%-20s %8s %10s\n", "CALL", "COUNT", "TIME(us)");
	printa("%-20s %@8d %@10d\n", @calls, @times);
}
