/*
 * The psinfo_t and lwpsinfo_t translators against what the builtins and
 * the command line say: pr_psargs is the target's argv joined by spaces.
 * @@args: -c "$B/targets/loop 7"
 */
#pragma D option quiet

BEGIN { done = 0; }

syscall::getppid:entry
/pid == $target && done == 0/
{
	printf("%d %d %d %d\n", curpsinfo->pr_pid == pid,
	    curpsinfo->pr_ppid == ppid, curpsinfo->pr_uid == uid,
	    curlwpsinfo->pr_lwpid == tid);
	printf("%s|%s|%s\n", curpsinfo->pr_fname, curpsinfo->pr_psargs,
	    basename(curlwpsinfo->pr_name));
	done = 1;
}
