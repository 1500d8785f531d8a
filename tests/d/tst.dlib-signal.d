/*
 * Signal names of the D library (signal.d): killchild sends its child
 * one SIGUSR1, and the child dies of it; the names are Linux's numbers.
 * @@args: -c "$B/targets/killchild"
 */
#pragma D option quiet

proc:::signal-send
/pid == $target && args[2] == SIGUSR1/
{
	@[args[1]->pr_ppid == pid, SIGKILL, SIGCHLD] = count();
}

END
{
	printa("SIGUSR1 to its child %d (SIGKILL %d, SIGCHLD %d): %@d\n", @);
}
