/*
 * killchild -- forks a child that waits in pause(), sends it SIGUSR1
 * (default action: terminate), and reaps it: exactly one fork, one
 * SIGUSR1 from this process to its child, one child killed by a signal.
 */
#include <signal.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

int main(void)
{
	struct timespec ts = { 0, 20 * 1000 * 1000 };
	pid_t child = fork();
	int status;

	if (child == 0) {
		pause();
		_exit(0);
	}
	nanosleep(&ts, NULL);	/* let the child reach pause() */
	kill(child, SIGUSR1);
	waitpid(child, &status, 0);
	return WIFSIGNALED(status) && WTERMSIG(status) == SIGUSR1 ? 0 : 1;
}
