/*
 * A userland pointer (dtrace-utils' "userland" qualifier) reaches the
 * probe's process memory: *p, p[i], p->m and stringof(p) read there.
 * napper sleeps 1 ms three times through clock_nanosleep(clock, flags,
 * req, rem): req->tv_sec 0, req->tv_nsec 1000000.  cat opens the file
 * named on its command line.  A plain pointer is the kernel's, as in
 * DTrace: the same read through (struct __kernel_timespec *) faults.
 * @@args: -c "$B/targets/napper 3"
 */
#pragma D option quiet

syscall::clock_nanosleep:entry
/pid == $target/
{
	ts = (userland struct __kernel_timespec *)arg2;
	@sec[ts->tv_sec] = count();
	@nsec[((userland long *)arg2)[1]] = count();
	@deref[*(userland long *)arg2] = count();
}

syscall::clock_nanosleep:entry
/pid == $target/
{
	this->k = (struct __kernel_timespec *)arg2;
	@kernel_read[this->k->tv_nsec] = count();
}

ERROR
{
	@faults[arg4] = count();
}

END
{
	printa("tv_sec %d: %@d\n", @sec);
	printa("tv_nsec %d: %@d\n", @nsec);
	printa("*(userland long *) %d: %@d\n", @deref);
	printa("plain pointer read: %d %@d\n", @kernel_read);
	printa("faults of kind %d: %@d\n", @faults);
}
