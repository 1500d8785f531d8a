/*
 * execer PROG [ARG...] -- forks one child that execs PROG with its
 * arguments, waits for it, and exits with its status.  For tests that
 * must see an exec: as with DTrace's -c, the -c command's own exec is over
 * before tracing starts, but its child's is traced.
 */
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	int status;
	pid_t pid;

	if (argc < 2)
		return 2;
	pid = fork();
	if (pid == 0) {
		execv(argv[1], argv + 1);
		perror(argv[1]);
		_exit(127);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid)
		return 1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}
