#!/usr/sbin/dtrace -s
/*
 * badopen.d -- opens that fail because the file is not there.
 *
 * USAGE: badopen.d -c command
 */
#pragma D option quiet

syscall::openat:entry
/pid == $target/
{
	self->path = arg1;
}

syscall::openat:return
/self->path && errno == ENOENT/
{
	printf("%s: no such file\n", copyinstr(self->path));
}

syscall::openat:return
{
	self->path = 0;
}
