/*
 * napper [N] -- main() calls wait_for_io() N times (default 5); each
 * sleeps 1 ms in libc's nanosleep(), which goes through clock_nanosleep:
 * exactly N clock_nanosleep system calls, each with the stack
 * clock_nanosleep <- nanosleep <- wait_for_io <- main.  libc has no frame
 * pointers, so only .eh_frame unwinding finds wait_for_io.  The Makefile
 * also builds it as napper-nofp, optimised and without frame pointers.
 */
#include <stdlib.h>
#include <time.h>

/* noinline and a use of the result: a call, not inlined, not a tail call */
__attribute__((noinline)) int wait_for_io(void)
{
	struct timespec ts = { 0, 1000 * 1000 };

	if (nanosleep(&ts, NULL) != 0)
		abort();
	return 0;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 5;

	for (int i = 0; i < n; i++)
		wait_for_io();
	return 0;
}
