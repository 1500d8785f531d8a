#!/usr/sbin/dtrace -s
/*
 * ifelse.d -- classify reads by size with if/else (D as dtrace-utils
 * accepts it), one line per read.
 *
 * USAGE: ifelse.d -c command directory
 */
#pragma D option quiet

syscall::read:entry
/pid == $target && dirname(fds[arg0].fi_pathname) == $$1/
{
	if (arg2 >= 100) {
		printf("big read of %d\n", arg2);
		@kind["big"] = count();
	} else {
		printf("small read of %d\n", arg2);
		@kind["small"] = count();
	}
}

dtrace:::END
{
	printa("%-6s %@d\n", @kind);
}
