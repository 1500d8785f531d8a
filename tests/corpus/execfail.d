#!/usr/sbin/dtrace -s
/*
 * execfail.d -- failed execs, by errno.
 *
 * USAGE: execfail.d -c command
 */
#pragma D option quiet

proc:::exec
/ppid == $target/
{
	@tried[stringof(args[0])] = count();
}

proc:::exec-failure
/ppid == $target/
{
	@failed[args[0] == 2 ? "ENOENT" : args[0] == 13 ? "EACCES" : "other"] =
	    count();
}

dtrace:::END
{
	printa("tried %s %@d\n", @tried);
	printa("failed %s %@d\n", @failed);
}
