/* An aggregation keyed by a tuple of a string and an integer. */
syscall::read:entry
{
	@bytes[execname, pid] = sum(arg2);
}
