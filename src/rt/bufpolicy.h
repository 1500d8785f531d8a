/*
 * bufpolicy.h -- the fill and ring buffer policies, applied by the
 * consumer to its own per-CPU store of records.
 *
 * In DTrace a CPU's principal buffer is bufsize bytes of kernel memory:
 * under switch (the default) the consumer swaps and prints it at every
 * switchrate; under fill, tracing stops once a CPU's buffer is full;
 * under ring, new records overwrite the oldest and the buffers are printed
 * when tracing stops.  Here the kernel side is always a perf ring per CPU,
 * drained by the consumer (when a ring is a sixteenth full, and at least
 * every switchrate), so every record reaches user space; fill and ring are
 * emulated on a store in user space, in DTrace's units: a record costs the
 * bytes it takes in the principal buffer (bufpolicy_cost).
 *
 *   ring  a CPU keeps its newest records, at most bufsize bytes of them;
 *         older ones are overwritten, which is not a drop (nor in DTrace).
 *   fill  a CPU takes records until the next one would not fit in bufsize
 *         less the room kept for END's records; from then on that CPU is
 *         full and refuses records (not drops: DTrace's fill buffers
 *         refuse them the same way), and the session stops tracing at its
 *         next status check.  END's records may use the kept room, so
 *         END's output is always there.  The limit is kept in the BPF
 *         programs themselves (cg_clause.c's fill_room, globals_hdr.fill_limit,
 *         drop_counts.fill_bytes/fill_refused), so a full CPU does not
 *         flood its perf ring; the store applies the same limit to what
 *         it receives (error records, which do not pass through
 *         fill_room).  Unlike DTrace, whose probe skips a clause it has
 *         no room for, a refused clause still runs: its variables and
 *         aggregations change until tracing stops.
 *
 * A ring may be bounded by time as well (option buftime, for -x record's
 * flight recorder): a record that carries its firing's timestamp (a
 * recorded firing does) is let go at the drain if it is more than maxage
 * older than the newest such record of any CPU, so the trace keeps the
 * last maxage before the newest firing.  The window ends at the newest
 * firing, not at the moment of the drain: the trace's own timestamps say
 * what was kept and why, and a drain after a quiet spell still keeps
 * what came before it.  Records without a timestamp (printf's) are
 * bounded by bytes only.
 *
 * Nothing is printed until tracing stops; then each CPU's records are
 * printed, CPU after CPU, oldest first, the CPU END ran on last, as
 * dtrace(1) prints these buffers.
 * The emulation is exact as long as a perf ring does not overflow between
 * two reads; when one does, the kernel counts the lost records and they
 * are reported as drops on that CPU, as under switch.
 */
#ifndef DSCOPE_BUFPOLICY_H
#define DSCOPE_BUFPOLICY_H

#include <stdbool.h>
#include <stdint.h>

#include "spec/options.h"
#include "spec/spec.h"

struct bufpolicy_rec {
	struct bufpolicy_rec *next;
	uint32_t size;			/* the record's bytes */
	uint32_t cost;			/* its bytes in the principal buffer */
	uint64_t ts;			/* its firing's timestamp; 0: none */
	unsigned char data[];
};

struct bufpolicy_cpu {
	struct bufpolicy_rec *head, *tail;	/* oldest first */
	uint64_t bytes;			/* sum of the records' costs */
	bool full;			/* fill: this CPU refuses records */
	uint64_t drops;			/* records no room could take (larger
					 * than bufsize), or no memory */
	uint64_t overwritten;		/* ring: older records let go for
					 * newer ones (not drops) */
};

struct bufpolicy_store {
	enum bufpolicy policy;		/* FILL or RING */
	uint64_t bufsize;
	uint64_t end_room;		/* fill: bytes kept for END's records */
	uint64_t maxage;		/* ring: ns a timed record is kept before
					 * the newest (buftime); 0: no bound */
	uint64_t aged;			/* timed records let go for their age */
	bool ending;			/* END runs: fill may use end_room */
	bool filled;			/* fill: some CPU is full */
	int end_cpu;			/* the CPU END ran on (its records came
					 * while ending), printed last; -1 */
	int ncpus;
	struct bufpolicy_cpu *cpus;
};


/* The cost of the largest record sp's clauses write: a principal buffer
 * smaller than that cannot hold it (libdtrace's rule). */
uint32_t bufpolicy_largest(const struct spec *sp);

/* fill: the room kept for one run of every END clause's record, as
 * DTrace reserves it. */
uint64_t bufpolicy_end_room(const struct spec *sp);

/* 0, or -ENOMEM. */
int bufpolicy_init(struct bufpolicy_store *s, enum bufpolicy policy,
		   uint64_t bufsize, uint64_t end_room, int ncpus);

/* Store a copy of a record made on cpu, its firing's timestamp ts (0:
 * it has none); false if fill refused it, or it was dropped (counted in
 * the CPU's drops). */
bool bufpolicy_add(struct bufpolicy_store *s, int cpu, const void *rec,
		   uint32_t size, uint64_t ts);

typedef void bufpolicy_print_f(void *ctx, int cpu, const void *rec,
			       uint32_t size);

/* Hand every stored record to print, CPU by CPU (END's last), oldest
 * first, and empty the store; under maxage, those older than the window
 * are let go instead (counted in aged). */
void bufpolicy_drain(struct bufpolicy_store *s, bufpolicy_print_f *print,
		     void *ctx);

/* ring: the records overwritten so far, all CPUs. */
uint64_t bufpolicy_overwritten(const struct bufpolicy_store *s);

void bufpolicy_fini(struct bufpolicy_store *s);

#endif /* DSCOPE_BUFPOLICY_H */
