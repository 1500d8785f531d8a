#!/usr/bin/env -S dscope -qs
/*
 * Which processes make which system calls?  The top 20 pairs over five
 * seconds.  Usage: dscope -qs syscalls-by-process.d
 */
syscall:::entry
{
	@[execname, probefunc] = count();
}

tick-5s
{
	trunc(@, 20);
	exit(0);
}
