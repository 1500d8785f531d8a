/*
 * usdtopt N: USDT operands as an optimising compiler writes them.  Built
 * at -O2 (the Makefile's one exception), so the probe's arguments are
 * scaled-index memory operands, rip-relative globals and registers rather
 * than -O0's stack slots; `readelf -n` shows which.  It prints the sums
 * of what it passed, for a trace to reproduce exactly:
 *
 *   opt:sib(v[i], pairs[i & 15].b, table[i & 63], counter, pair.b, i,
 *           q->x[i & 63])
 *
 * where v[i] = i, pairs[k].b = 3k, table[k] = 2k, counter counts the
 * firings from 1, pair.b grows by 2 a firing and q->x[k] = -k.
 *
 * usdtopt N guard then fires opt:guarded(guard[0]) once, with guard's
 * page made unreadable (PROT_NONE) first, after printing its address: the
 * site is a nop and never touches it, but a tracer fetching the argument
 * must fail there, and say so.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/sdt.h>

long table[64];
volatile int counter;
volatile struct { long a, b; } pair;
struct two { long a, b; } pairs[16];
struct ints { int pad[2], x[64]; } ints;
static long sums[7];
/* a page of its own, to be made unreadable */
static volatile long guard[4096 / sizeof(long)] __attribute__((aligned(4096)));

__attribute__((noinline)) static void work(const long *v, long n,
					   const struct two *p,
					   const struct ints *q)
{
	for (long i = 0; i < n; i++) {
		counter++;
		pair.b += 2;
		DTRACE_PROBE7(opt, sib, v[i], p[i & 15].b, table[i & 63], counter,
			      pair.b, i, q->x[i & 63]);
		sums[0] += v[i];
		sums[1] += p[i & 15].b;
		sums[2] += table[i & 63];
		sums[3] += counter;
		sums[4] += pair.b;
		sums[5] += i;
		sums[6] += q->x[i & 63];
	}
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? strtol(argv[1], NULL, 10) : 100;
	long *v = malloc((size_t)(n > 0 ? n : 1) * sizeof(*v));

	if (!v)
		return 1;
	for (long i = 0; i < n; i++)
		v[i] = i;
	for (int k = 0; k < 64; k++)
		table[k] = 2 * k;
	for (int k = 0; k < 16; k++)
		pairs[k].b = 3 * k;
	for (int k = 0; k < 64; k++)
		ints.x[k] = -k;
	work(v, n, pairs, &ints);
	printf("sums %ld %ld %ld %ld %ld %ld %ld\n", sums[0], sums[1], sums[2],
	       sums[3], sums[4], sums[5], sums[6]);
	free(v);
	if (argc > 2 && strcmp(argv[2], "guard") == 0) {
		printf("guard %p\n", (void *)guard);
		fflush(stdout);
		if (mprotect((void *)guard, sizeof(guard), PROT_NONE) < 0)
			return 1;
		DTRACE_PROBE1(opt, guarded, guard[0]);
	}
	return 0;
}
