#!/usr/sbin/dtrace -s
/*
 * rwtime.d -- distribution of read(2) and write(2) latency, in
 * nanoseconds, for files under a directory.
 *
 * USAGE: rwtime.d -c command directory
 */
#pragma D option quiet

syscall::read:entry,
syscall::write:entry
/pid == $target && dirname(fds[arg0].fi_pathname) == $$1/
{
	self->ts = timestamp;
}

syscall::read:return,
syscall::write:return
/self->ts/
{
	@lat[probefunc == "read" ? "read(2)" : "write(2)"] =
	    quantize(timestamp - self->ts);
	@n[probefunc == "read" ? "read(2)" : "write(2)"] = count();
	self->ts = 0;
}

dtrace:::END
{
	printa("%s calls: %@d\n", @n);
	printa("%s latency (ns)%@d\n", @lat);
}
