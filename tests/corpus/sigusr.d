#!/usr/sbin/dtrace -s
/*
 * sigusr.d -- user signals sent by the command, by name, and the
 * SIGCHLDs it gets back.
 *
 * USAGE: sigusr.d -c command
 */
#pragma D option quiet

proc:::signal-send
/pid == $target && (args[2] == SIGUSR1 || args[2] == SIGUSR2)/
{
	printf("%s sent %s to %d\n", execname,
	    args[2] == SIGUSR1 ? "SIGUSR1" : "SIGUSR2", args[1]->pr_pid);
}

proc:::signal-send
/args[1]->pr_pid == $target && args[2] == SIGCHLD/
{
	printf("SIGCHLD from %d to %s\n", pid, stringof(args[1]->pr_fname));
}
