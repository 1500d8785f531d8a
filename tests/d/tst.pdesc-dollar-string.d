/*
 * $$1 in a probe description is the argument's text, as $1 is: the
 * function name comes from the command line, quoted or not.  loop
 * calls getppid exactly 1234 times.
 * @@args: -c "$B/targets/loop 1234" getppid entry
 */
#pragma D option quiet

syscall::$$1:$$2
/pid == $target/
{
	@[probefunc] = count();
}

syscall::$1:$2
/pid == $target/
{
	@plain = count();
}
