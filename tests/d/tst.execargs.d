/*
 * execargs: the process's arguments joined by spaces, dtrace-utils'
 * built-in (bpf/bvar_execargs.S), read from the argument area the
 * kernel made at exec (mm->arg_start..arg_end).  The target's own, as
 * it was run, an argument with a space in it included.
 * @@args: -q -c "$B/targets/loop 3 'two words' x"
 */
syscall::getppid:entry
/pid == $target && !done/
{
	done = 1;
	printf("[%s]\n", execargs);
	printf("same as pr_psargs: %d\n", execargs == curpsinfo->pr_psargs);
}

syscall::exit_group:entry
/pid == $target/
{
	exit(0);
}
