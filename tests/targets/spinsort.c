/*
 * spinsort -- spins until killed in a known call chain through libc:
 * main -> sort_a -> sort_b -> sort_c -> qsort (libc) -> spin_cmp, which
 * never returns.  The Makefile builds it optimised and without frame
 * pointers, as Debian builds libc, so a frame-pointer walk loses the
 * chain at the first frame; only .eh_frame unwinding gets from spin_cmp
 * through libc's qsort to main and below (tests/sh/ustack-systemwide.sh).
 */
#include <stdlib.h>

volatile unsigned long spins;	/* what the loop does, kept */
volatile int sink;		/* a use after each call: no tail calls */

static int spin_cmp(const void *a, const void *b)
{
	for (;;)
		spins++;
	return *(const int *)a - *(const int *)b;
}

__attribute__((noinline, noclone)) static int sort_c(int *v)
{
	qsort(v, 2, sizeof(*v), spin_cmp);
	sink = v[0];
	return 3;
}

__attribute__((noinline, noclone)) static int sort_b(int *v)
{
	int r = sort_c(v);

	sink = r;
	return r + 2;
}

__attribute__((noinline, noclone)) static int sort_a(int *v)
{
	int r = sort_b(v);

	sink = r;
	return r + 1;
}

int main(void)
{
	int v[2] = { 2, 1 };

	sink = sort_a(v);
	return 0;
}
