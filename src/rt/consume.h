/*
 * consume.h -- read the principal buffers and carry out recorded actions.
 *
 * Each CPU's buffer holds records (spec.h) in the order that CPU made them.
 * The consumer decodes each through its epid's layout and performs the
 * actions in user space: printf formatting, trace output, printa, clear,
 * exit.  Lost data is counted twice over -- by the kernel's perf ring
 * (lost samples) and by the programs' own drop counters (MAP_DROPS) -- and
 * every loss is reported, per CPU, as DTrace does.  Never silently.
 *
 * Under bufpolicy=fill or ring the records read are held (rt/bufpolicy.h)
 * and carried out only by consume_release(), when tracing has stopped.
 */
#ifndef DSCOPE_CONSUME_H
#define DSCOPE_CONSUME_H

#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>

#include "rt/agg.h"
#include "rt/bufpolicy.h"
#include "rt/oformat.h"
#include "rt/metrics.h"
#include "spec/options.h"
#include "spec/spec.h"
#include "rt/specbuf.h"

struct catalog;
struct perf_buffer;

/* flowindent, per CPU: the depth, and the probe and clause last shown */
struct flow_state {
	int indent;
	uint32_t probe_id, epid;
};

struct consumer {
	const struct spec *sp;
	struct catalog *cat;
	struct options *opts;		/* the session's: setopt() changes them */
	FILE *out, *err;
	FILE *orig_out;			/* out before any freopen() */
	const char *progname;
	bool testing;			/* _DTRACE_TESTING: no CPU/ID columns */
	bool header_done;		/* the column header has been printed */
	bool done;			/* exit() seen */
	int exit_status;
	uint64_t errors;		/* run-time errors reported */
	uint64_t dblerrors, dblerrors_seen; /* faults in ERROR clauses:
					 * counted, reported as status */
	struct perf_buffer *pb;
	size_t pages;			/* of each perf ring */
	int *ring_cpu;			/* per perf ring: its CPU */
	uint64_t *ring_enabled;		/* per perf ring: its enabled time
					 * when last looked (consume_revive) */
	struct ring_buffer *wake;	/* MAP_WAKE: exit() was called */
	int epfd;			/* both: the principal buffers and wake */
	struct agg_state aggs;
	struct drop_counts *dropped;	/* per CPU: reported so far */
	struct specbufs specs;		/* speculative records held back */
	uint64_t specunavail;		/* failed speculations reported so far */
	struct bufpolicy_store held;	/* fill, ring: records read, not yet done */
	bool holding;			/* records go to held */
	int ncpus;
	struct flow_state *flow;	/* per CPU: flowindent's indent, last probe */
	bool stashing;			/* BEGIN's records wait in stash */
	struct stashed *stash, **stash_end;
	struct fmt_sym_ops syms;	/* kernel symbols for stacks, sym() */
	uint32_t target_pid;		/* -p/-c's process; 0: none */
	struct metrics *metrics;	/* serving /metrics: told of resets */
	pthread_mutex_t *lock;		/* held but while waiting (metrics.h) */
	struct emitter *em;		/* oformat other than text; NULL: text */
	struct emit_record *rec;	/* em: the record being carried out */
	struct ctf_writer *ctf;		/* -x record: the trace; NULL: none */
	const struct ctf_trace *replayed; /* -x replay: the trace, whose
					 * stacks name their own frames */
	uint32_t rec_probe;		/* the probe of the record being
					 * carried out, and its CPU */
	int rec_cpu;
};

int consume_open(struct consumer *c);
/* Wait up to timeout_ms for a principal buffer to fill past its wakeup
 * mark and read the ones that did; <0 on error. */
int consume_wait(struct consumer *c, int timeout_ms);
/* Read every principal buffer to its end (a switch); <0 on error. */
int consume_read(struct consumer *c);
/*
 * CPU hot-plug: a CPU taken offline takes its perf ring's event with it,
 * for good (the kernel drops a CPU's events from its context), so once
 * the CPU is back every record written there fails, counted as a drop.
 * This looks for such rings (an event whose enabled time stands still
 * on a CPU online) or CPUs online that have none, and opens the rings
 * again: the old ones are read to their end first.  0 or -errno.
 */
int consume_revive(struct consumer *c);
/* consume_wait, then consume_read. */
int consume_poll(struct consumer *c, int timeout_ms);
/* BEGIN's records are read before the other probes are attached and
 * carried out after (consume_unstash): DTrace fires BEGIN once every
 * enabling is on, so a system() there runs with every probe live. */
void consume_stash(struct consumer *c);
void consume_unstash(struct consumer *c);
/* fill, ring: carry out the held records, CPU by CPU; from now on
 * records are carried out as they are read. */
void consume_release(struct consumer *c);
/* bufpolicy=ring: carry out the held records now and keep holding (a
 * flight recorder's snapshot, on SIGUSR1). */
void consume_flush_ring(struct consumer *c);
/* bufpolicy=fill: has a CPU's buffer filled (in BPF, or in the store)? */
bool consume_filled(struct consumer *c);
/* Report drops counted since the last call: principal buffer drops;
 * dynamic variable and speculation drops (the status); aggregation
 * drops; or all of them. */
void consume_buf_drops(struct consumer *c);
void consume_status_drops(struct consumer *c);
void consume_agg_drops(struct consumer *c);
void consume_drops(struct consumer *c);
/* End of run: the default output of aggregations not yet printed. */
void consume_final_aggs(struct consumer *c);
void consume_close(struct consumer *c);
/* Per CPU: the firings lost so far (principal buffer drops), as reported; ncpus entries, the caller frees. */
uint64_t *consume_lost(const struct consumer *c);

#endif /* DSCOPE_CONSUME_H */
