#!/usr/bin/env -S dscope -qs
/*
 * Who killed my process?  Every signal sent on the machine: the sender,
 * the target, the signal.  Usage: dscope -qs whokilled.d
 */
proc:::signal-send
{
	printf("%s (pid %d) sent signal %d to pid %d (%s)\n", execname, pid,
	    args[2], args[1]->pr_pid, args[1]->pr_fname);
}
