/*
 * recurse N: main calls down(N), which calls itself until its argument
 * is 1 and then calls leaf() once: a call tree of known shape and depth.
 * A stack taken in leaf() holds leaf, N frames of down, then main and
 * what called it; a flow trace of down and leaf nests N + 1 deep.
 *
 * recurse rounds N: N rounds; round d calls leaf() through d frames of
 * down(), so each round's stack is new, then waits for SIGUSR1 before
 * the next.  A tracer that acts between rounds (trunc(), then system()
 * sends the signal) knows it is done before the next stack appears.
 * SIGUSR1 stays blocked but in sigsuspend(): one sent early waits.
 */
#include <signal.h>
#include <stdlib.h>
#include <string.h>

static volatile int sink;

__attribute__((noinline)) void leaf(void)
{
	sink++;
}

__attribute__((noinline)) void down(int n)
{
	if (n > 1)
		down(n - 1);
	else
		leaf();
	sink++;		/* work after the call: no tail call to flatten */
}

static void on_usr1(int sig)
{
	(void)sig;
}

static void rounds(int n)
{
	sigset_t usr1, old;

	signal(SIGUSR1, on_usr1);
	sigemptyset(&usr1);
	sigaddset(&usr1, SIGUSR1);
	sigprocmask(SIG_BLOCK, &usr1, &old);
	for (int d = 1; d <= n; d++) {
		down(d);
		sigsuspend(&old);
	}
}

int main(int argc, char **argv)
{
	if (argc > 2 && strcmp(argv[1], "rounds") == 0)
		rounds(atoi(argv[2]));
	else
		down(argc > 1 ? atoi(argv[1]) : 3);
	return 0;
}
