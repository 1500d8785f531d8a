/*
 * proc:::exec fires at every attempt to exec, before it succeeds or
 * fails, with the path asked for; exec-success only for the one that
 * worked.  execer's child tries /nonexistent/nothing, then execs loop
 * (the paths are in its argv, on its stack).  The -c command's own
 * exec is before tracing starts.
 * @@args: -q -c "$B/targets/execer -f /nonexistent/nothing $B/targets/loop 3"
 */
proc:::exec
/ppid == $target/
{
	@tried[basename(args[0])] = count();
}

proc:::exec-success
/ppid == $target/
{
	@ok[execname] = count();
}

proc:::exec
/pid == $target/
{
	@self = count();
}

END
{
	printa("tried %s %@d\n", @tried);
	printa("succeeded %s %@d\n", @ok);
	printa("the target's own: %@d\n", @self);
}
