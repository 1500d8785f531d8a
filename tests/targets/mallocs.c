/*
 * mallocs.c -- a traced program whose calls are known exactly: main calls
 * alloc_small(), which calls malloc(24) 300 times, then alloc_big(), which
 * calls malloc(70000) 7 times; count_me() is called 42 times.  Built -O0
 * with frame pointers (Makefile), so user stacks walk main -> alloc_* ->
 * malloc.
 */
#include <stdlib.h>

static void *keep[512];

int count_me(int a, long b, const char *c)
{
	return a + (int)b + (c != NULL);
}

void alloc_small(void)
{
	for (int i = 0; i < 300; i++)
		keep[i] = malloc(24);
}

void alloc_big(void)
{
	for (int i = 0; i < 7; i++)
		keep[300 + i] = malloc(70000);
}

int main(void)
{
	int sum = 0;

	alloc_small();
	alloc_big();
	for (int i = 0; i < 42; i++)
		sum += count_me(i, 1000 + i, "x");
	for (int i = 0; i < 307; i++)
		free(keep[i]);
	return sum == 0;
}
