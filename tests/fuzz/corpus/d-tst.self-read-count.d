/*
 * Thread-local variables carry a timestamp from entry to return: every
 * read(2) of `cat` is counted at return exactly once
 * (the loader reads libc once, cat gets EOF from /dev/null once).
 * @@args: -c "cat /dev/null"
 */
#pragma D option quiet

syscall::read:entry
/pid == $target/
{
	self->ts = timestamp;
}

syscall::read:return
/self->ts/
{
	@reads[execname] = count();
	@positive = max(timestamp - self->ts > 0);
	self->ts = 0;
}

END
{
	printa("%s %@d\n", @reads);
	printa("%@d\n", @positive);
}
