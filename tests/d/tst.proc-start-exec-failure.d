/*
 * proc:::start and lwp-start fire in the new process or thread, and
 * exec-failure gives the errno, against build/targets/spawner: 3 children
 * start, each fails to exec twice (ENOENT 2, EACCES 13); 2 threads start.
 * @@args: -q -c "$B/targets/spawner"
 */
proc:::start
/ppid == $target/
{
	@starts = count();
	@start_is_child[pid != $target] = count();
}

proc:::lwp-start
/pid == $target/
{
	@lwp_starts = count();
	@lwp_is_new_thread[tid != pid] = count();
}

proc:::exec-failure
/ppid == $target/
{
	@failures[args[0]] = count();
}

END
{
	printa("start %@d\n", @starts);
	printa("start in the child: %d %@d\n", @start_is_child);
	printa("lwp-start %@d\n", @lwp_starts);
	printa("lwp-start in a new thread: %d %@d\n", @lwp_is_new_thread);
	printa("exec-failure errno %d: %@d\n", @failures);
}
