#!/usr/sbin/dtrace -s
/*
 * rwbytes.d -- bytes read and written, by file, under one directory.
 *
 * USAGE: rwbytes.d -c command directory
 */
#pragma D option quiet

syscall::read:entry,
syscall::write:entry
/pid == $target && dirname(fds[arg0].fi_pathname) == $$1/
{
	self->fd = arg0;
	self->in = 1;
}

syscall::read:return,
syscall::write:return
/self->in && (int)arg0 > 0/
{
	@bytes[probefunc, fds[self->fd].fi_name] = sum(arg0);
	@calls[probefunc, fds[self->fd].fi_name] = count();
}

syscall::read:return,
syscall::write:return
{
	self->in = 0;
	self->fd = 0;
}

dtrace:::END
{
	printf("%-6s %-8s %8s %6s\n", "OP", "FILE", "BYTES", "CALLS");
	printa("%-6s %-8s %@8d %@6d\n", @bytes, @calls);
}
