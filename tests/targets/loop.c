/*
 * loop N: calls getppid() exactly N times (default 1000), then exits.
 * The ground truth for counting tests: a trace of this process's getppid
 * entries must count exactly N.
 */
#include <stdlib.h>
#include <sys/syscall.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	long n = argc > 1 ? strtol(argv[1], NULL, 10) : 1000;

	for (long i = 0; i < n; i++)
		syscall(SYS_getppid);
	return 0;
}
