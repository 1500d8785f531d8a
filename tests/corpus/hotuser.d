#!/usr/sbin/dtrace -s
/*
 * hotuser.d -- where a command spends its user time, by sampling its
 * program counter, in the DTraceToolkit's hotuser manner: the PCs are
 * kept raw and named when printed (%A), or folded to their functions
 * (ufunc) or libraries (umod) when an option asks.
 *
 * USAGE: hotuser.d -c command [options]
 *
 *   options is a sum of:  1  by function too
 *                         2  by library too
 */
#pragma D option quiet
#pragma D option defaultargs

inline int OPT_func = ($1 & 1) != 0;
inline int OPT_lib  = ($1 & 2) != 0;

dtrace:::BEGIN
{
	printf("Sampling... Hit Ctrl-C to end.\n");
}

profile:::profile-1001hz
/arg1 && pid == $target/
{
	@pc[arg1] = count();
	OPT_func ? @func[ufunc(arg1)] = count() : 1;
	OPT_lib ? @lib[umod(arg1)] = count() : 1;
	@samples = count();
}

dtrace:::END
{
	printf("%-49s %s\n", "PC", "COUNT");
	printa("%-49A %@d\n", @pc);
	OPT_func ? printf("\n%-49s %s\n", "FUNCTION", "COUNT") : 1;
	OPT_func ? printa("%-49A %@d\n", @func) : 1;
	OPT_lib ? printf("\n%-49s %s\n", "LIBRARY", "COUNT") : 1;
	OPT_lib ? printa("%-49A %@d\n", @lib) : 1;
	printa("\n%@d samples\n", @samples);
}
