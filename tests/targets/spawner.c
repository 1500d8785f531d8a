/*
 * spawner -- three children that each try two execs that fail (a path
 * that does not exist: ENOENT; a file that is not executable: EACCES)
 * and exit, then two threads, each created and joined, then 1000
 * sched_yield() calls.  Every event is the program's own, so counts are
 * exact: 3 process starts, 2 thread starts, 3 ENOENT and 3 EACCES exec
 * failures, 1000 scheduler decisions inside sched_yield.
 */
#include <pthread.h>
#include <sched.h>
#include <sys/wait.h>
#include <unistd.h>

static void *thread_main(void *arg)
{
	return arg;
}

int main(void)
{
	char *argv[] = { "/nonexistent/dscope-exec", NULL };
	pthread_t t;

	for (int i = 0; i < 3; i++) {
		if (fork() == 0) {
			execv(argv[0], argv);
			execv("/etc/passwd", argv);
			_exit(0);
		}
		wait(NULL);
	}
	for (int i = 0; i < 2; i++) {
		pthread_create(&t, NULL, thread_main, NULL);
		pthread_join(t, NULL);
	}
	for (int i = 0; i < 1000; i++)
		sched_yield();
	return 0;
}
