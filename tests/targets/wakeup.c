/*
 * wakeup -- a 1 ms sleeper that measures how late the kernel wakes it:
 * clock_nanosleep(CLOCK_MONOTONIC) of 1 ms in a loop, each overshoot
 * (the time slept past the 1 ms asked for) kept as the phase's worst.
 * It prints "ready" once running; each SIGUSR1 prints the phase ended
 * as "worst US sleeps N" (microseconds; N the sleeps of the phase) and
 * starts the next; SIGTERM prints the last phase the same way and
 * exits.  A test pins it to a CPU and signals it at the phases of what
 * it watches (tests/sh/fbt-storm.sh): the machine stays responsive as
 * long as the worst stays small.
 */
#include <signal.h>
#include <stdio.h>
#include <time.h>

static volatile sig_atomic_t report, stop;

static void on_usr1(int sig)
{
	(void)sig;
	report = 1;
}

static void on_term(int sig)
{
	(void)sig;
	stop = 1;
}

static long long ns(const struct timespec *t)
{
	return t->tv_sec * 1000000000LL + t->tv_nsec;
}

int main(void)
{
	struct timespec ms = { 0, 1000000 }, a, b;
	long long worst = 0, sleeps = 0;

	signal(SIGUSR1, on_usr1);
	signal(SIGTERM, on_term);
	setvbuf(stdout, NULL, _IOLBF, 0);
	printf("ready\n");
	while (!stop) {
		clock_gettime(CLOCK_MONOTONIC, &a);
		clock_nanosleep(CLOCK_MONOTONIC, 0, &ms, NULL);
		clock_gettime(CLOCK_MONOTONIC, &b);
		if (ns(&b) - ns(&a) - ns(&ms) > worst)
			worst = ns(&b) - ns(&a) - ns(&ms);
		sleeps++;
		if (report) {
			printf("worst %lld sleeps %lld\n", worst / 1000, sleeps);
			report = 0;
			worst = sleeps = 0;
		}
	}
	printf("worst %lld sleeps %lld\n", worst / 1000, sleeps);
	return 0;
}
