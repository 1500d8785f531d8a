/*
 * lockers N M K -- known pthread mutex traffic, for plockstat's tests.
 *
 * 1. N threads, one after another, each lock and unlock the mutex M
 *    times: N*M acquisitions, none contended.
 * 2. K rounds of forced contention: the main thread holds the mutex; a
 *    waiter tries it (pthread_mutex_trylock fails: EBUSY, counted), then
 *    locks it; the main thread waits until glibc has marked the mutex
 *    "locked, with waiters" (__lock == 2, set by the waiter just before
 *    it calls futex(FUTEX_WAIT)), so the waiter's call surely blocks,
 *    sleeps 1 ms and unlocks.  Each round: 2 acquisitions, 1 block.
 * It prints what it knows: acquisitions, trylock failures, blocks, and
 * the nanoseconds the waiters spent in pthread_mutex_lock, summed.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static long iters, acquires, trylock_failed;
static long long waited_ns;

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static void *locker(void *arg)
{
	(void)arg;
	for (long i = 0; i < iters; i++) {
		pthread_mutex_lock(&m);
		acquires++;
		pthread_mutex_unlock(&m);
	}
	return NULL;
}

static void *waiter(void *arg)
{
	long long t0;

	(void)arg;
	if (pthread_mutex_trylock(&m) == EBUSY)
		trylock_failed++;
	t0 = now_ns();
	pthread_mutex_lock(&m);
	waited_ns += now_ns() - t0;
	acquires++;
	pthread_mutex_unlock(&m);
	return NULL;
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 4, k = argc > 3 ? atol(argv[3]) : 3;
	pthread_t t;

	iters = argc > 2 ? atol(argv[2]) : 100;
	for (long i = 0; i < n; i++) {
		pthread_create(&t, NULL, locker, NULL);
		pthread_join(t, NULL);
	}
	for (long i = 0; i < k; i++) {
		pthread_mutex_lock(&m);
		acquires++;
		pthread_create(&t, NULL, waiter, NULL);
		while (__atomic_load_n(&m.__data.__lock, __ATOMIC_ACQUIRE) != 2)
			sched_yield();
		usleep(1000);
		pthread_mutex_unlock(&m);
		pthread_join(t, NULL);
	}
	printf("mutex %p acquires %ld trylock_failed %ld blocks %ld waited_ns %lld\n",
	       (void *)&m, acquires, trylock_failed, k, waited_ns);
	return 0;
}
