#!/usr/sbin/dtrace -s
/*
 * hotspots.d - where a command spends its user-mode CPU, by program
 * counter, named module`function+offset (a hotuser-style sampler).
 *
 * USAGE: hotspots.d -c command
 */

#pragma D option quiet

dtrace:::BEGIN
{
	printf("Sampling... Hit Ctrl-C to end.\n");
}

profile:::profile-1001hz
/progenyof($target) && arg1/
{
	@pc[arg1] = count();
	@total = count();
}

dtrace:::END
{
	printf("%-60s %s\n", "PC", "COUNT");
	printa("%-60A %@d\n", @pc);
	printa("\nTOTAL %@d\n", @total);
}
