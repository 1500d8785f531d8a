#!/usr/sbin/dtrace -s
/*
 * kinfo.d -- what the running kernel says about itself, read from its
 * own variables: release, CPUs, memory, uptime and forks since boot.
 *
 * USAGE: kinfo.d
 */
#pragma D option quiet

dtrace:::BEGIN
{
	printf("%-12s %s %s\n", "kernel", `init_uts_ns.name.sysname,
	    `init_uts_ns.name.release);
	printf("%-12s %s\n", "host", `init_uts_ns.name.nodename);
	printf("%-12s %d\n", "cpus", `nr_cpu_ids);
	printf("%-12s %d MB\n", "memory", (`max_pfn * 4096) >> 20);
	printf("%-12s %d\n", "threads", `nr_threads);
	printf("%-12s %d\n", "forks", `total_forks);
	start = `jiffies;
}

profile:::tick-1sec
{
	printf("%-12s %d\n", "hz", `jiffies - start);
	exit(0);
}
