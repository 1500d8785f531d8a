/*
 * proc:::exec fires once per attempt, before exec-success or
 * exec-failure of the same attempt, in the old program (execname), with
 * the path asked for even where it lies on a page the process never
 * touched: coldexec's child tries /nonexistent/dscope-coldexec (ENOENT),
 * then /bin/true, both string literals on cold pages.  self->tried says,
 * at success or failure, that exec fired first in the same thread.  A
 * kernel without sched_prepare_exec reads the path at sys_enter, where
 * a cold page faults (stable.c): tst.proc-exec-order runs there.
 * @@needs: $B/dscope -l -n sdt:sched::sched_prepare_exec
 * @@args: -q -c "$B/targets/coldexec"
 */
proc:::exec
/ppid == $target/
{
	@exec[args[0], execname] = count();
	self->tried = 1;
}

proc:::exec-failure
/ppid == $target/
{
	@failed[args[0], self->tried] = count();
	self->tried = 0;
}

proc:::exec-success
/ppid == $target/
{
	@succeeded[execname, self->tried] = count();
	self->tried = 0;
}

END
{
	printa("exec %s by %s: %@d\n", @exec);
	printa("failed errno %d, after exec %d: %@d\n", @failed);
	printa("succeeded %s, after exec %d: %@d\n", @succeeded);
}
