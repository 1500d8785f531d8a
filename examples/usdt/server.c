/*
 * server.c -- a request loop with USDT probes, built through dscope -h
 * and -G (Makefile).  Two worker threads take requests of three kinds:
 * static (quick), query (slow, outside the lock) and rebuild (holds the
 * shared cache lock for a millisecond -- the other thread then waits for
 * it: the contention lock-contention.d finds).
 *
 * Usage: ./server [requests-per-thread]   (default 200; ends by itself)
 */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "server_probes.h"

enum reason { STATIC = 1, QUERY = 2, REBUILD = 3 };

static pthread_mutex_t cache_lock = PTHREAD_MUTEX_INITIALIZER;
static uint64_t next_id;
static int per_thread = 200;

/* The lock probes fire only when the lock is held by another thread. */
static void cache_enter(void)
{
	if (pthread_mutex_trylock(&cache_lock) == 0)
		return;
	MYSERV_LOCK_WAIT_START(&cache_lock);
	pthread_mutex_lock(&cache_lock);
	MYSERV_LOCK_WAIT_DONE(&cache_lock);
}

static void cache_leave(void)
{
	pthread_mutex_unlock(&cache_lock);
}

/* Work standing in for each kind: where the time goes, in or out of the
 * lock. */
static int serve(enum reason why)
{
	switch (why) {
	case STATIC:
		cache_enter();
		usleep(20);
		cache_leave();
		return 200;
	case QUERY:
		usleep(300);
		cache_enter();
		cache_leave();
		return 200;
	case REBUILD:
		cache_enter();
		usleep(1000);	/* the bug: slow work under the lock */
		cache_leave();
		return 201;
	}
	return 500;
}

static void request(unsigned *seed)
{
	uint64_t id = __atomic_add_fetch(&next_id, 1, __ATOMIC_RELAXED);
	enum reason why = (enum reason)(rand_r(seed) % 3 + 1);
	char path[64];

	/* the path costs a snprintf: make it only while someone traces */
	if (MYSERV_REQUEST_START_ENABLED()) {
		snprintf(path, sizeof(path), "/item/%llu", (unsigned long long)id);
		MYSERV_REQUEST_START(id, (int)why, path);
	}
	int status = serve(why);

	MYSERV_REQUEST_DONE(id, (int)why, status);
}

static void *worker(void *arg)
{
	unsigned seed = (unsigned)(uintptr_t)arg;

	for (int i = 0; i < per_thread; i++)
		request(&seed);
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t t[2];

	if (argc > 1)
		per_thread = atoi(argv[1]);
	for (uintptr_t i = 0; i < 2; i++)
		if (pthread_create(&t[i], NULL, worker, (void *)(i + 1)) != 0)
			return 1;
	for (int i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	printf("done: %llu requests\n", (unsigned long long)next_id);
	return 0;
}
