/*
 * proc provider against build/targets/killchild, which forks one child,
 * sends it SIGUSR1 and reaps it: create names the child, signal-send the
 * sender, the target (that child) and the signal, exit says the child was
 * killed (CLD_KILLED, 2) and the parent exited (CLD_EXITED, 1).  The
 * events happen on any CPU, so they are reported at the END, in order.
 * As with DTrace's -c, the command's own exec is over before tracing
 * starts: no exec-success for it.
 * @@args: -q -c "$B/targets/killchild"
 */
proc:::exec-success
/pid == $target/
{
	execs++;
	exec_name = execname;
}

proc:::create
/pid == $target/
{
	creates++;
	child = args[0]->pr_pid;
	childs_parent_is_target = args[0]->pr_ppid == $target;
}

proc:::lwp-create
/pid == $target/
{
	lwp_creates++;
}

proc:::signal-send
/pid == $target && args[2] == 10/
{
	sends++;
	sender = execname;
	sig = args[2];
	to_child = args[1]->pr_pid == child && args[0]->pr_lwpid == child;
}

proc:::exit
/pid == child/
{
	child_reason = args[0];
}

proc:::exit
/pid == $target/
{
	target_reason = args[0];
}

proc:::lwp-exit
/pid == child/
{
	child_lwp_exits++;
}

END
{
	printf("exec-success %d %s\n", execs, exec_name);
	printf("create %d, lwp-create %d, child's parent is the target %d\n",
	    creates, lwp_creates, childs_parent_is_target);
	printf("signal-send %d: %s sends %d to the child %d\n", sends, sender,
	    sig, to_child);
	printf("exit: child reason %d, target reason %d\n", child_reason,
	    target_reason);
	printf("lwp-exit: child %d\n", child_lwp_exits);
}
