#!/usr/sbin/dtrace -s
/*
 * writeargs.d -- write(2) by file descriptor and size requested.
 *
 * USAGE: writeargs.d -c command
 */
#pragma D option quiet

syscall::write:entry
/pid == $target/
{
	@w[arg0, arg2] = count();
}

dtrace:::END
{
	printf("%4s %8s %6s\n", "FD", "SIZE", "COUNT");
	printa("%4d %8d %@6d\n", @w);
}
