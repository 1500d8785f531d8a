/*
 * aliases N: calls work() exactly N times (default 7), a function with a
 * second global name, __work_alias, and a local one, work_local, at the
 * same address -- as libc's sigemptyset and __GI_sigemptyset.  One
 * function, one probe: pid$target:a.out:*work*:entry must count N.
 */
#include <stdlib.h>

volatile long calls;

__attribute__((noinline)) void work(void)
{
	calls++;
}

void __work_alias(void) __attribute__((alias("work")));
static void work_local(void) __attribute__((alias("work"), used));

int main(int argc, char **argv)
{
	long n = argc > 1 ? strtol(argv[1], NULL, 10) : 7;

	for (long i = 0; i < n; i++)
		work();
	return 0;
}
