#!/usr/sbin/dtrace -s
/*
 * opensnoop.d -- the opens of a command, one line each, with optional
 * columns in the DTraceToolkit's manner: OPT_* inlines, and lines that
 * print a column only when its option is on.
 *
 * USAGE: opensnoop.d -c command [options]
 *
 *   options is a sum of:  1  failed opens only
 *                         2  print errno
 *                         4  dump style (all fields, space separated)
 *                         8  print the time in microseconds
 */
#pragma D option quiet
#pragma D option defaultargs
#pragma D option switchrate=10hz

inline int OPT_failonly = $1 & 1;
inline int OPT_errno    = ($1 & 2) != 0;
inline int OPT_dump     = ($1 & 4) != 0;
inline int OPT_time     = ($1 & 8) != 0;

dtrace:::BEGIN
{
	/* print the header */
	OPT_time ? printf("%-14s ", "TIME") : 1;
	OPT_dump ? printf("%s %s %s %s\n", "PID", "COMM", "FD", "PATH") :
	    printf("%6s %-12s %3s %s\n", "PID", "COMM", "FD", "PATH");
}

syscall::openat:entry
/pid == $target/
{
	self->path = arg1;
}

syscall::openat:return
/self->path && (!OPT_failonly || (int)arg0 < 0)/
{
	/* print the optional fields, then the line */
	OPT_time ? printf("%-14d ", timestamp / 1000) : 1;
	OPT_dump ? printf("%d %s %d %s", pid, execname, (int)arg0,
	    copyinstr(self->path)) :
	    printf("%6d %-12s %3d %s", pid, execname, (int)arg0,
	    copyinstr(self->path));
	OPT_errno ? printf(" %d\n", errno) : printf("\n");
	OPT_failonly ? @fails = count() : 1;
	!OPT_failonly ? @opens = count() : 1;
}

syscall::openat:return
{
	self->path = 0;
}

dtrace:::END
{
	OPT_failonly ? printa("%@d failed opens\n", @fails) :
	    printa("%@d opens\n", @opens);
}
