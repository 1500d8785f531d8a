#!/usr/sbin/dtrace -s
/*
 * openstatus.d -- did each open under a directory succeed?  A ternary
 * in printf and a string comparison in the predicate.
 *
 * USAGE: openstatus.d -c command directory
 */
#pragma D option quiet

syscall::openat:entry
/pid == $target/
{
	self->path = copyinstr(arg1);
	self->ok = dirname(self->path) == $$1;
}

syscall::openat:return
/self->ok/
{
	printf("%-8s %s\n", basename(self->path), errno ? "FAIL" : "OK");
	@res[errno == 0 ? "succeeded" : "failed"] = count();
}

syscall::openat:return
{
	self->ok = 0;
}

dtrace:::END
{
	printa("%s %@d\n", @res);
}
