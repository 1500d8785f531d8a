/*
 * Aggregations keyed by tuples of strings and integers, printed by the
 * default output at the end: 12345 getppid calls by one program.
 * @@args: -c "$B/targets/loop 12345"
 */
#pragma D option quiet

syscall::getppid:entry
/pid == $target/
{
	@[execname, probefunc, probename] = count();
	@s[probeprov, probemod] = sum(2);
	@mn = min(-3);
	@mx = max(pid == $target ? 9 : 1);
	@av = avg(4);
}
