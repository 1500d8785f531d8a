/*
 * usdtprog N: fires USDT probes (<sys/sdt.h>) with known arguments N
 * times (default 100), then prints "gated K": how often the is-enabled
 * branch of usdtprog:::gated was taken.  K is 0 untraced and N while
 * usdtprog:::gated is traced, since the branch tests the probe's
 * semaphore, which the kernel raises for each tracer attached.
 *
 * Probes, for i = 0 .. N-1 (sums over N = 100 in brackets):
 *   fire(int i, long 1000+i, uchar i, short -i, int -7i, long 10^10 i)
 *     [4950, 104950, 4950, -4950, -34650, 49500000000000]
 *   neg__arg(5, -1), shown as neg-arg: constants, immediates in the note
 *   twice(i) and twice(2i): one probe, two sites in main    [14850]
 *   gated(i), only when enabled                             [4950]
 *
 * usdtprog -1 prints "ready" and loops until SIGTERM, one iteration a
 * millisecond; SIGUSR1 makes it print "gated K sem S" (S: the semaphore
 * now), for the tests that attach to a running process and check what
 * is left behind.
 */
#define _SDT_HAS_SEMAPHORES 1
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/sdt.h>
#include <time.h>

/* every probe of the file has a semaphore once _SDT_HAS_SEMAPHORES is
 * set; only gated's is tested */
#define SEMAPHORE(name) \
	volatile unsigned short usdtprog_##name##_semaphore \
		__attribute__((section(".probes"), used))
SEMAPHORE(fire);
SEMAPHORE(neg__arg);
SEMAPHORE(twice);
SEMAPHORE(gated);

static volatile sig_atomic_t report, stop;
static long taken;

static void fire(long i)
{
	DTRACE_PROBE6(usdtprog, fire, (int)i, 1000 + i, (unsigned char)i,
		      (short)-i, (int)(-7 * i), 10000000000L * i);
	DTRACE_PROBE2(usdtprog, neg__arg, 5, -1);
}

static void gated(long i)
{
	if (usdtprog_gated_semaphore) {
		taken++;
		DTRACE_PROBE1(usdtprog, gated, i);
	}
}

static void on_signal(int sig)
{
	if (sig == SIGUSR1)
		report = 1;
	else
		stop = 1;
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? strtol(argv[1], NULL, 10) : 100;
	struct timespec ms = { 0, 1000000 };

	signal(SIGUSR1, on_signal);
	signal(SIGTERM, on_signal);
	if (n < 0) {
		puts("ready");
		fflush(stdout);
	}
	for (long i = 0; n < 0 ? !stop : i < n; i++) {
		long twice = 2 * i;

		fire(i);
		DTRACE_PROBE1(usdtprog, twice, i);
		DTRACE_PROBE1(usdtprog, twice, twice);
		gated(i);
		if (n < 0)
			nanosleep(&ms, NULL);
		if (report) {
			report = 0;
			printf("gated %ld sem %u\n", taken,
			       (unsigned)usdtprog_gated_semaphore);
			fflush(stdout);
		}
	}
	printf("gated %ld\n", taken);
	return 0;
}
