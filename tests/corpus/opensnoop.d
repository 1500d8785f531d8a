#!/usr/sbin/dtrace -s
/*
 * opensnoop.d -- snoop file opens as they happen: who opened what, and
 * the file descriptor or the error.
 *
 * USAGE: opensnoop.d [-c command | -p PID]
 */
#pragma D option quiet
#pragma D option switchrate=10hz

dtrace:::BEGIN
{
	printf("%5s %6s %-12s %4s %3s %s\n",
	    "UID", "PID", "COMM", "FD", "ERR", "PATH");
}

syscall::open:entry,
syscall::openat:entry
/pid == $target/
{
	/* the path is the last argument but one for openat */
	self->path = probefunc == "open" ? arg0 : arg1;
}

syscall::open:return,
syscall::openat:return
/self->path/
{
	printf("%5d %6d %-12s %4d %3d %s\n", uid, pid, execname,
	    (int)arg0, errno, copyinstr(self->path));
	self->path = 0;
}
