#!/usr/sbin/dtrace -s
/*
 * opensnoopz.d -- the opens of a command with its zone (container) and
 * zone id, as the DTraceToolkit's opensnoop -Z prints them; failed opens
 * only with $1 = 1.
 *
 * USAGE: opensnoopz.d -c command [1]
 */
#pragma D option quiet
#pragma D option defaultargs
#pragma D option switchrate=10hz

inline int OPT_failonly = $1 & 1;

dtrace:::BEGIN
{
	printf("%-16s %8s %6s %-12s %3s %s\n", "ZONE", "ZONEID", "PID", "COMM",
	    "FD", "PATH");
}

syscall::openat:entry
/pid == $target/
{
	self->path = arg1;
}

syscall::openat:return
/self->path && (!OPT_failonly || (int)arg0 < 0)/
{
	printf("%-16s %8d %6d %-12s %3d %s\n", zonename,
	    curpsinfo->pr_zoneid, pid, execname, (int)arg0,
	    copyinstr(self->path));
	@opens[zonename, cgroup_path(cgroup)] = count();
}

syscall::openat:return
{
	self->path = 0;
}

dtrace:::END
{
	printa("%s %s %@d opens\n", @opens);
}
