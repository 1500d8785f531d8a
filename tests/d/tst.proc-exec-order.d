/*
 * proc:::exec fires once per attempt, before exec-success or
 * exec-failure of the same attempt, in the old program (execname), on
 * every kernel: execer's child tries /nonexistent/nothing (ENOENT), then
 * execs loop, both paths in its argv (resident: tst.proc-exec-cold has
 * paths on cold pages).  self->tried says, at success or failure, that
 * exec fired first in the same thread.
 * @@args: -q -c "$B/targets/execer -f /nonexistent/nothing $B/targets/loop 1"
 */
proc:::exec
/ppid == $target/
{
	@exec[basename(args[0]), execname] = count();
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
