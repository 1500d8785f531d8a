/* A predicate comparing a string: execname read, then compared bytewise. */
syscall::read:entry
/execname == "napper"/
{
	trace(pid);
}
