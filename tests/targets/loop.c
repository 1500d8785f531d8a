/*
 * loop N: calls getppid() exactly N times (default 1000), then exits.
 * The ground truth for counting tests: a trace of this process's getppid
 * entries must count exactly N.
 *
 * loop N -: the same, then reads its standard input to the end before
 * exiting, so that a test can hold many traced runs open at once (and
 * look at their tracers) after each has done its N calls.  Other extra
 * arguments are ignored (tests/sh/execargs.sh shows them).
 */
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	long n = argc > 1 ? strtol(argv[1], NULL, 10) : 1000;
	char buf[64];

	for (long i = 0; i < n; i++)
		syscall(SYS_getppid);
	if (argc == 3 && strcmp(argv[2], "-") == 0)
		while (read(0, buf, sizeof(buf)) > 0)
			;
	return 0;
}
