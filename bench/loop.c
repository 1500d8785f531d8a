/*
 * loop -- the traced workload of the benchmarks: a tight getppid() loop.
 *
 *   loop run MODE N          call N times, print "N ELAPSED_NS", exit
 *   loop serve CMD RESP      say "ready" on fifo RESP, then read "MODE N"
 *                            lines from fifo CMD and answer each with
 *                            "N ELAPSED_NS" on RESP; "quit" ends
 *   loop paced RATE SECONDS  call getppid() RATE times a second for SECONDS
 *                            (RATE 0: as fast as possible), print
 *                            "CALLS ELAPSED_NS" on stderr (stdout is the
 *                            tracer's, which writes it in whole buffers:
 *                            a line of ours could land inside one of its)
 *
 * MODE is what one iteration does:
 *   sys   syscall(SYS_getppid)                  the syscall provider's probe
 *   func  bench_getppid(), a function that      a pid-provider / uprobe
 *         makes the syscall                     target at its entry
 *   usdt  a USDT probe bench:tick, then the     a usdt-provider target
 *         syscall (the probe site is a nop
 *         when nobody traces it)
 *   gated bench:tock behind its semaphore       an is-enabled probe
 *         (if (bench_tock_semaphore) ...),
 *         then the syscall
 *   tick  bench:tick alone, no syscall          the probe effect when off,
 *   tock  bench:tock alone, no syscall          at its most visible
 *
 * serve mode exists so that a tracer can run this program under -c (it is
 * started only once the tracer has attached) while the harness decides
 * when each measured loop begins: the in-kernel statistics are switched on
 * and read around one loop, not around the tracer's start-up.
 *
 * Built twice: loop, and loop-nosdt with the probes compiled out
 * (-DBENCH_NO_SDT); every mode runs in both.
 *
 * Only the loop itself is timed (CLOCK_MONOTONIC), never process start-up.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

/*
 * The probes.  Built with -DBENCH_NO_SDT (as loop-nosdt) they compile to
 * nothing, and the same loops run without them: the probe effect when off
 * is one build against the other, untraced.  <sys/sdt.h> gives every probe
 * of a file a semaphore once _SDT_HAS_SEMAPHORES is set; only tock's is
 * tested, tick fires unconditionally (its site is a nop when untraced).
 */
#if !defined(BENCH_NO_SDT) && __has_include(<sys/sdt.h>)
#define _SDT_HAS_SEMAPHORES 1
#include <sys/sdt.h>
#define SEMAPHORE(name) \
	volatile unsigned short bench_##name##_semaphore \
		__attribute__((section(".probes"), used))
SEMAPHORE(tick);
SEMAPHORE(tock);
#define TICK(i) DTRACE_PROBE1(bench, tick, i)
#define TOCK(i)                                                        \
	do {                                                           \
		if (__builtin_expect(bench_tock_semaphore, 0))         \
			DTRACE_PROBE1(bench, tock, i);                 \
	} while (0)
#else
#define TICK(i) ((void)(i))
#define TOCK(i) ((void)(i))
#endif

static long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000L + ts.tv_nsec;
}

/* A real function with a real entry: noinline and used, so that a uprobe
 * on its symbol fires once per call. */
__attribute__((noinline, used)) long bench_getppid(void)
{
	long r = syscall(SYS_getppid);

	__asm__ volatile("" ::: "memory");
	return r;
}

static long run_sys(long n)
{
	long t0 = now_ns();

	for (long i = 0; i < n; i++)
		syscall(SYS_getppid);
	return now_ns() - t0;
}

static long run_func(long n)
{
	long t0 = now_ns();

	for (long i = 0; i < n; i++)
		bench_getppid();
	return now_ns() - t0;
}

static long run_usdt(long n)
{
	long t0 = now_ns();

	for (long i = 0; i < n; i++) {
		TICK(i);
		syscall(SYS_getppid);
	}
	return now_ns() - t0;
}

static long run_gated(long n)
{
	long t0 = now_ns();

	for (long i = 0; i < n; i++) {
		TOCK(i);
		syscall(SYS_getppid);
	}
	return now_ns() - t0;
}

/* The probe alone, no syscall: the most sensitive test of a probe that is
 * off.  The empty asm keeps i live and the loop in place in both builds. */
static long run_tick(long n)
{
	long t0 = now_ns();

	for (long i = 0; i < n; i++) {
		TICK(i);
		__asm__ volatile("" : : "r"(i) : "memory");
	}
	return now_ns() - t0;
}

static long run_tock(long n)
{
	long t0 = now_ns();

	for (long i = 0; i < n; i++) {
		TOCK(i);
		__asm__ volatile("" : : "r"(i) : "memory");
	}
	return now_ns() - t0;
}

/* Returns the elapsed time, or -1 for an unknown mode. */
static long run(const char *mode, long n)
{
	static const struct {
		const char *name;
		long (*fn)(long);
	} modes[] = {
		{ "sys", run_sys },
		{ "func", run_func },
		{ "usdt", run_usdt },
		{ "gated", run_gated },
		{ "tick", run_tick },
		{ "tock", run_tock },
	};

	for (size_t i = 0; i < sizeof(modes) / sizeof(modes[0]); i++)
		if (strcmp(mode, modes[i].name) == 0)
			return modes[i].fn(n);
	return -1;
}

static int serve(const char *cmd_path, const char *resp_path)
{
	FILE *cmd = fopen(cmd_path, "r");
	FILE *resp = fopen(resp_path, "w");
	char mode[16];
	long n;

	if (!cmd || !resp) {
		fprintf(stderr, "loop: %s: %s\n", cmd ? resp_path : cmd_path,
			strerror(errno));
		return 1;
	}
	fprintf(resp, "ready\n");
	fflush(resp);
	while (fscanf(cmd, "%15s", mode) == 1 && strcmp(mode, "quit") != 0) {
		if (fscanf(cmd, "%ld", &n) != 1)
			break;
		fprintf(resp, "%ld %ld\n", n, run(mode, n));
		fflush(resp);
	}
	return 0;
}

/* Calls in batches of about a millisecond's worth, sleeping until each
 * batch is due: the pace holds without spinning a CPU the tracer's
 * consumer needs. */
static int paced(long rate, long seconds)
{
	long batch = rate / 1000 > 0 ? rate / 1000 : 1;
	long total = rate * seconds, done = 0;
	long t0 = now_ns();

	if (rate == 0) {
		long end = t0 + seconds * 1000000000L;

		while (now_ns() < end) {
			for (int i = 0; i < 1000; i++)
				syscall(SYS_getppid);
			done += 1000;
		}
	}
	while (done < total) {
		long due = t0 + (long)((double)done / rate * 1e9);
		long wait = due - now_ns();

		if (wait > 0) {
			struct timespec ts = { wait / 1000000000L,
					       wait % 1000000000L };
			nanosleep(&ts, NULL);
		}
		for (long i = 0; i < batch && done < total; i++, done++)
			syscall(SYS_getppid);
	}
	fprintf(stderr, "%ld %ld\n", done, now_ns() - t0);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 4 && strcmp(argv[1], "run") == 0) {
		long n = strtol(argv[3], NULL, 10);
		long ns = run(argv[2], n);

		if (ns < 0) {
			fprintf(stderr, "loop: mode %s not available\n", argv[2]);
			return 1;
		}
		printf("%ld %ld\n", n, ns);
		return 0;
	}
	if (argc == 4 && strcmp(argv[1], "serve") == 0)
		return serve(argv[2], argv[3]);
	if (argc == 4 && strcmp(argv[1], "paced") == 0)
		return paced(strtol(argv[2], NULL, 10), strtol(argv[3], NULL, 10));
	fprintf(stderr, "usage: loop run sys|func|usdt|gated|tick|tock N\n"
			"       loop serve CMD_FIFO RESP_FIFO\n"
			"       loop paced RATE SECONDS\n");
	return 2;
}
