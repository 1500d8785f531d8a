#!/usr/sbin/dtrace -s
/*
 * mallocers.d -- who calls malloc, and for how many bytes in all: user
 * stacks with printa's %k.
 *
 * USAGE: mallocers.d -c command
 */
#pragma D option quiet

pid$target::malloc:entry
{
	@bytes[ustack(4)] = sum(arg0);
	@calls[ustack(4)] = count();
}

dtrace:::END
{
	printa("%k%@d bytes in %@d calls\n", @bytes, @calls);
}
