/*
 * metrics.h -- the live aggregations over HTTP, for Prometheus to scrape
 * (-x metrics=ADDR:PORT).  The text itself is rt/promtext.h's.
 *
 * libmicrohttpd serves GET /metrics from a thread of its own; anything
 * else gets 404 (another path) or 405 (another method), and there is no
 * way to change anything through it.  ADDR is loopback unless given: a
 * bare PORT (or :PORT) binds 127.0.0.1.  Any other address must come
 * with TLS and basic authentication (metrics_webconfig, rt/webconfig.h)
 * or with metrics_insecure said out loud; with users configured, every
 * request is authenticated before anything else is looked at.
 *
 * libmicrohttpd and libcrypt are opened on first use (metrics.c says
 * why): a run that never asks for metrics never loads them.
 *
 * Threads.  The consumer thread and the HTTP thread share the aggregation
 * state (agg_state: descriptions, the symbol caches that name keys), the
 * families' offsets, and the maps themselves, which clear() and trunc()
 * rewrite in several steps.  One mutex, the session's, covers all of it:
 * the consumer holds it whenever it is not waiting for events
 * (consume_wait lets go of it around epoll_wait), the HTTP thread while
 * it takes a snapshot and writes the text.  A scrape therefore sees each
 * clear() or trunc() whole, never half done.
 *
 * The response is bounded by metrics_maxsize (default 4 MiB): rows past
 * it are left out whole, a comment at the end says how many, and dscope
 * says so once on stderr, so what is served always parses.
 *
 * Ownership: metrics__new binds the socket (so a bad address or a port in
 * use fails before anything is loaded), metrics__start starts serving,
 * metrics__free stops the thread and closes the socket; its caller must
 * not hold the lock then (the thread may be waiting for it).
 */
#ifndef DSCOPE_METRICS_H
#define DSCOPE_METRICS_H

#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>

#include "rt/agg.h"
#include "spec/options.h"
#include "spec/spec.h"

struct metrics;

/* Parse o's metrics options against sp's aggregations and bind the
 * socket; *out NULL when metrics is not set.  0, or -errno with a
 * sentence on err. */
int metrics__new(const struct options *o, const struct spec *sp, FILE *err,
		 const char *progname, struct metrics **out);
/* Serve aggs (the consumer's) under lock.  0, or -errno with a sentence. */
int metrics__start(struct metrics *m, struct agg_state *aggs,
		   pthread_mutex_t *lock, bool quiet);
void metrics__free(struct metrics *m);	/* NULL is fine */

/* Around clear() and trunc() of aggregation ai, with the lock held: what
 * the counters lose joins their offsets.  NULL m is fine. */
void metrics_reset_begin(struct metrics *m, int ai);
void metrics_reset_end(struct metrics *m, int ai);

#endif /* DSCOPE_METRICS_H */
