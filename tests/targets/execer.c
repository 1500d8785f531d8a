/*
 * execer [-f BAD] PROG [ARG...] -- forks one child that execs PROG with
 * its arguments, waits for it, and exits with its status; with -f, the
 * child first tries to exec BAD, which must fail.  For tests that must
 * see execs: as with DTrace's -c, the -c command's own exec is over
 * before tracing starts, but its child's are traced.  Every path is in
 * argv, on the stack, so a tracer can read it at the exec's start.
 */
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	const char *bad = NULL;
	int status;
	pid_t pid;

	if (argc > 2 && strcmp(argv[1], "-f") == 0) {
		bad = argv[2];
		argv += 2;
		argc -= 2;
	}
	if (argc < 2)
		return 2;
	pid = fork();
	if (pid == 0) {
		if (bad) {
			char *none[] = { (char *)bad, NULL };

			execv(bad, none);	/* fails: the test says so */
		}
		execv(argv[1], argv + 1);
		perror(argv[1]);
		_exit(127);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid)
		return 1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}
