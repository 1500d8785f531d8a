/*
 * agg.h -- aggregations in user space: snapshot the per-CPU maps, merge
 * the CPUs, and hand rows to aggprint; clear() and trunc().
 *
 * The kernel keeps a PERCPU_HASH map per aggregation (DESIGN.md 3.3):
 * each CPU folds values into its own copy with no sharing at all, and the
 * CPUs meet only here, when a snapshot merges them.  A key a firing could
 * not make in that map is in the next of the aggregation's lanes
 * (spec.h), maps alike; a snapshot merges a key's lanes as it merges
 * CPUs, and clear() and trunc() act on every lane.
 *
 * A key made by sym(), func(), mod(), usym(), ufunc() or umod() is an
 * address in the kernel's map, one entry per address; the snapshot makes
 * it the function's (or the module's) before rows are merged, so
 * @[ufunc(ucaller)] has one row per function, as in DTrace
 * (dt_aggregate.c's dt_aggregate_usym and friends).
 */
#ifndef DSCOPE_AGG_H
#define DSCOPE_AGG_H

#include "base/arena.h"
#include "rt/aggprint.h"
#include "spec/spec.h"

struct agg_state {
	const struct spec *sp;
	struct agg_desc *descs;		/* one per spec aggregation */
	bool *printed;			/* printa() has shown it */
	int ncpus;
	const struct fmt_sym_ops *syms;	/* names symbol keys; NULL: kept as
					 * addresses */
	uint64_t *stale;		/* stack ids no key named at the last
					 * trunc() (agg.c's stacks_gc), sorted */
	size_t nstale;
};

int agg_state_init(struct agg_state *st, const struct spec *sp);
void agg_state_fini(struct agg_state *st);

/* Rows of aggregation ai, merged over CPUs, in arena a. */
int agg_snapshot(struct agg_state *st, int ai, struct arena *a,
		 struct agg_data *out);

/* clear(): every value to its initial state; trunc(n): keep the n rows
 * that sort first (n < 0: the last -n), n == 0 / no n: remove all. */
int agg_clear(struct agg_state *st, int ai);
int agg_trunc(struct agg_state *st, int ai, bool has_n, int64_t n,
	      const struct agg_sort_opts *so);

#endif /* DSCOPE_AGG_H */
