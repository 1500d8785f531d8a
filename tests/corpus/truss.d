#!/usr/sbin/dtrace -s
/*
 * truss.d -- a truss-like trace of a few system calls, with their
 * arguments and results.
 *
 * USAGE: truss.d -c command
 */
#pragma D option quiet

syscall::close:entry,
syscall::getppid:entry
/pid == $target/
{
	self->arg0 = arg0;
	self->in = 1;
}

syscall::close:return,
syscall::getppid:return
/self->in && errno != 0/
{
	printf("%s(%d) = -1 Err#%d\n", probefunc, (int)self->arg0, errno);
}

syscall::close:return,
syscall::getppid:return
/self->in && errno == 0/
{
	printf("%s() = %d\n", probefunc, (int)arg0);
}

syscall::close:return,
syscall::getppid:return
/self->in/
{
	self->in = 0;
}
