#!/usr/sbin/dtrace -s
/*
 * whoami.d -- what DTrace knows of a process: curpsinfo for the
 * command, the first time it makes a system call of its own.
 *
 * USAGE: whoami.d -c command
 */
#pragma D option quiet

dtrace:::BEGIN
{
	printf("tracer pid %d\n", $pid);
}

syscall::getppid:entry
/pid == $target && !seen/
{
	seen = 1;
	printf("pid %d ppid %d uid %d gid %d\n", curpsinfo->pr_pid,
	    curpsinfo->pr_ppid, curpsinfo->pr_uid, curpsinfo->pr_gid);
	printf("fname %s\n", curpsinfo->pr_fname);
	printf("psargs %s\n", curpsinfo->pr_psargs);
	printf("execname %s tid %d\n", execname, tid);
}
