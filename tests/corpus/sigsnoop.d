#!/usr/sbin/dtrace -s
/*
 * sigsnoop.d -- who sends signals to whom, and which.
 *
 * USAGE: sigsnoop.d -c command
 */
#pragma D option quiet

dtrace:::BEGIN
{
	printf("%6s %-10s %6s %-10s %4s\n", "FROM", "COMM", "TO", "COMM", "SIG");
}

proc:::create
/pid == $target/
{
	printf("child %d\n", args[0]->pr_pid);
}

proc:::signal-send
/pid == $target/
{
	printf("%6d %-10s %6d %-10s %4d\n", pid, execname,
	    args[1]->pr_pid, stringof(args[1]->pr_fname), args[2]);
}
