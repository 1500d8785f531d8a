/*
 * recurse N: main calls down(N), which calls itself until its argument
 * is 1 and then calls leaf() once: a call tree of known shape and depth.
 * A stack taken in leaf() holds leaf, N frames of down, then main and
 * what called it; a flow trace of down and leaf nests N + 1 deep.
 */
#include <stdlib.h>

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

int main(int argc, char **argv)
{
	down(argc > 1 ? atoi(argv[1]) : 3);
	return 0;
}
