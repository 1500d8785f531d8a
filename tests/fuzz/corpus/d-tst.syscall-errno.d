/*
 * errno and the return value at syscall return, against a program whose
 * failures are known: 7 x close(-1) = EBADF, 3 x openat of a missing file
 * = ENOENT (the dynamic loader's own opens succeed), 5 x getppid, which returns dscope's pid ($target's parent).
 * @@args: -c $B/targets/errnos
 */
#pragma D option quiet

syscall::close:return, syscall::openat:return
/pid == $target && errno != 0/
{
	@err[probefunc, errno, (int)arg1] = count();
}

syscall::getppid:return
/pid == $target/
{
	@ppid[arg1 == ppid] = count();
}

END
{
	printa("%s errno=%d ret=%d: %@d\n", @err);
	printa("getppid returned ppid: %d x%@d\n", @ppid);
}
