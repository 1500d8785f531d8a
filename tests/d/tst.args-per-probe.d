/*
 * A clause over several probes types args[] per probe, as DTrace compiles
 * a clause once per probe description: close's args[0] is an unsigned int
 * fd, openat's an int dfd.  build/targets/errnos calls close(-1) 7 times
 * and openat(AT_FDCWD (-100), ...) 3 times (the loader opens with AT_FDCWD
 * and closes fd 3 too): close's largest fd is 4294967295 and its smallest
 * 3; openat's dfd is -100 throughout.  Either order of the descriptions
 * gives the same; the first probe's types standing for both made openat's
 * dfd 4294967196 in one order and close's fd -1 in the other.
 * @@args: -q -c $B/targets/errnos
 */
syscall::close:entry, syscall::openat:entry
/pid == $target/
{
	@lo1[probefunc] = min(args[0]);
	@hi1[probefunc] = max(args[0]);
}

syscall::openat:entry, syscall::close:entry
/pid == $target/
{
	@lo2[probefunc] = min(args[0]);
	@hi2[probefunc] = max(args[0]);
}

END
{
	printa("close,openat %s %@d %@d\n", @lo1, @hi1);
	printa("openat,close %s %@d %@d\n", @lo2, @hi2);
}
