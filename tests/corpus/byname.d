#!/usr/sbin/dtrace -s
/*
 * byname.d -- system calls made by processes of a given name, until
 * the first of them exits.
 *
 * USAGE: byname.d execname
 */
#pragma D option quiet

syscall:::entry
/execname == $$1/
{
	@calls[probefunc] = count();
}

syscall::exit_group:entry
/execname == $$1/
{
	exit(0);
}

dtrace:::END
{
	printa("%-16s %@d\n", @calls);
}
