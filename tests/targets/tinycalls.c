/*
 * tinycalls N T: T threads (default 1) each call two tiny functions,
 * tiny_add() and tiny_xor(), N times in a tight loop; main joins them
 * and exits.  Each call does almost nothing, so under pid$target:::entry
 * nearly all of the threads' time is the probes': a probe storm
 * (tests/sh/budget.sh), which the overhead budget must stop.  Traced to
 * the end, each function counts N * T.  N = 0: until killed.
 */
#include <pthread.h>
#include <stdlib.h>

static long n;
volatile unsigned long sink;	/* the calls' results, kept */

__attribute__((noinline)) unsigned long tiny_add(unsigned long i)
{
	return i + 1;
}

__attribute__((noinline)) unsigned long tiny_xor(unsigned long i)
{
	return i ^ 0x5a;
}

static void *calls(void *arg)
{
	(void)arg;
	for (long i = 0; n == 0 || i < n; i++)
		sink += tiny_add((unsigned long)i) + tiny_xor((unsigned long)i);
	return NULL;
}

int main(int argc, char **argv)
{
	long t = argc > 2 ? strtol(argv[2], NULL, 10) : 1;
	pthread_t *ids = calloc((size_t)(t > 0 ? t : 1), sizeof(*ids));

	n = argc > 1 ? strtol(argv[1], NULL, 10) : 1000;
	for (long k = 0; ids && k < t; k++)
		pthread_create(&ids[k], NULL, calls, NULL);
	for (long k = 0; ids && k < t; k++)
		pthread_join(ids[k], NULL);
	free(ids);
	return 0;
}
