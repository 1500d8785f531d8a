#!/usr/sbin/dtrace -s
/*
 * specopen.d -- speculative tracing: record every open, keep only the
 * ones that fail.
 *
 * USAGE: specopen.d -c command
 */
#pragma D option quiet
#pragma D option nspec=4

syscall::openat:entry
/pid == $target/
{
	self->spec = speculation();
	speculate(self->spec);
	printf("%-6s %s\n", "open", copyinstr(arg1));
}

syscall::openat:return
/self->spec/
{
	speculate(self->spec);
	printf("%-6s errno %d\n", "failed", errno);
}

syscall::openat:return
/self->spec && errno != 0/
{
	commit(self->spec);
	self->spec = 0;
}

syscall::openat:return
/self->spec/
{
	discard(self->spec);
	self->spec = 0;
}
