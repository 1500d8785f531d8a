/*
 * raise() is destructive (-w): it signals the traced process, which dies
 * of SIGTERM at its first getppid() -- dscope reports its pid exited and
 * ends, having counted exactly one call.
 * @@args: -w -c "$B/targets/loop 1000"
 */
#pragma D option quiet

syscall::getppid:entry
/pid == $target/
{
	@calls = count();
	raise(15);
}
