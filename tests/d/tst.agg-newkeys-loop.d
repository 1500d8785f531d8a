/*
 * Two and three keys of one aggregation in each firing of a probe that
 * fires as fast as a program can call getppid(), across two clauses:
 * every call counted under every key, exactly (loop calls it 12345
 * times).  pid and tid are one key here, a single-threaded program's.
 * @@args: -q -c "$B/targets/loop 12345"
 */
syscall::getppid:entry
/pid == $target/
{
	@a[0] = count();
	@a[1] = count();
	@b[pid] = sum(1);
	@b[tid + 0] = sum(2);
}

syscall::getppid:entry
/pid == $target/
{
	@a[2] = count();
	@b[1] = sum(1);
	@c[probefunc] = count();
	@c["ALL"] = count();
}

END
{
	printa("a %d %@d\n", @a);
	printa("b %@d\n", @b);
	printa("c %s %@d\n", @c);
}
