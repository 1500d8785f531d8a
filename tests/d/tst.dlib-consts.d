/*
 * The D library's named integers, used as real scripts use them: errno
 * names against a system call's errno (close(-1) fails with EBADF 7
 * times, openat of a missing path with ENOENT 3 times), and a fault
 * code against the ERROR probe's arg4 (a NULL dereference); a process
 * state (procfs.d): the thread making the call is on a CPU, SONPROC.
 * @@args: -c "$B/targets/errnos"
 */
#pragma D option quiet

syscall::close:return,
syscall::openat:return
/pid == $target && errno != 0/
{
	@[probefunc, errno == EBADF ? "EBADF" : errno == ENOENT ? "ENOENT" :
	    errno == EACCES ? "EACCES" : "other"] = count();
	@onproc[curlwpsinfo->pr_state == SONPROC, SRUN, SSLEEP] = count();
}

END
{
	trace(*(int *)NULL);
}

ERROR
{
	printf("fault is BADADDR: %d\n", arg4 == DTRACEFLT_BADADDR);
	printa("%s %s %@d\n", @);
	printa("on a CPU %d (SRUN %d, SSLEEP %d): %@d\n", @onproc);
}
