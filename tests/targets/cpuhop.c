/*
 * cpuhop.c -- values on two CPUs: mark() is called with 50 and 60 on
 * CPU 0, then with 7 and 900 on CPU 1 (and -3 and 40 back on CPU 0).
 * An aggregation's per-CPU copies must all count: min -3, max 900,
 * count 6, sum 1054, whichever CPU made the entry.  Exits 2 when it
 * cannot run on both CPUs.
 */
#define _GNU_SOURCE
#include <sched.h>

__attribute__((noinline)) long mark(long v)
{
	__asm__ volatile("" ::: "memory");
	return v;
}

static int on(int cpu)
{
	cpu_set_t s;

	CPU_ZERO(&s);
	CPU_SET(cpu, &s);
	return sched_setaffinity(0, sizeof(s), &s);
}

int main(void)
{
	long t = 0;

	if (on(0) < 0)
		return 2;
	t += mark(50) + mark(60);
	if (on(1) < 0)
		return 2;
	t += mark(7) + mark(900);
	if (on(0) < 0)
		return 2;
	t += mark(-3) + mark(40);
	return t == 1054 ? 0 : 1;
}
