#!/usr/sbin/dtrace -s
/*
 * childlife.d -- how long each child of the command lived.
 *
 * USAGE: childlife.d -c command
 */
#pragma D option quiet

proc:::create
/pid == $target/
{
	born[args[0]->pr_pid] = timestamp;
}

proc:::exit
/born[pid]/
{
	printf("child %d of %d exited after %s\n", pid, ppid,
	    timestamp > born[pid] ? "some time" : "no time");
	@lived = quantize(timestamp - born[pid]);
	born[pid] = 0;
}

dtrace:::END
{
	printa("lifetimes (ns)%@d\n", @lived);
}
