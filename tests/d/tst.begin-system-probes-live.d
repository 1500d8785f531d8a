/*
 * DTrace fires BEGIN once every enabling is on, and its consumer runs
 * BEGIN's system() after: the command's own system calls are traced.
 * (dtrace-utils' funcs/tst.inet_ntoa_alloca.d relies on it.)
 */
#pragma D option quiet
#pragma D option destructive

BEGIN
{
	system("printf 'abc' > /dev/null");
}

syscall::write:entry
/ppid == $pid/
{
	printf("the command wrote %d bytes\n", arg2);
	exit(0);
}
