/*
 * %S of a process's arguments prints them escaped and ends at the string's
 * NUL: no trailing \0, no padding.  A tab in an argument is escaped.
 * @@args: -q -c "$B/targets/loop 3 '	x'"
 */
syscall::getppid:entry
/pid == $target/
{
	printf("[%S]\n", curpsinfo->pr_psargs);
	exit(0);
}
