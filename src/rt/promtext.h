/*
 * promtext.h -- aggregations in Prometheus's text exposition format
 * (version 0.0.4), for the /metrics endpoint of rt/metrics.c.
 *
 * One aggregation is one metric family, named dscope_<name> (the
 * anonymous @ is plain dscope), one sample (or one group of samples) per
 * row, its keys as labels:
 *
 *   count, sum                    counter    dscope_a_total
 *   avg                           summary    dscope_a_sum, dscope_a_count
 *   min, max, stddev              gauge      dscope_a
 *   quantize, lquantize,          histogram  dscope_a_bucket{le=...},
 *   llquantize                               dscope_a_count
 *
 * A histogram's buckets are the aggregation's own: le is the largest value
 * a bucket holds (quantize's 512 bucket, [512, 1023], is le="1023"), and
 * the samples run from the bucket below the lowest used one (so that
 * histogram_quantile() interpolates within the right bounds) to the
 * highest used one, then le="+Inf".  The value words of the quantizations
 * hold counts only, not the values' sum, so there is no _sum sample: a
 * sum made up from bucket bounds would be wrong.
 *
 * Counters must never go down, or Prometheus takes the drop for a restart
 * and computes a wrong rate.  clear() and trunc() do take rows down, so a
 * family keeps an offset per label set: what its counters had before a
 * clear() or trunc() set them back (prom_note_reset).  The exported value
 * is the offset plus the kernel's, and a row trunc() removed is still
 * exported, at its offset.  Gauges are exported as they are.  A sum() of
 * negative values goes down by itself: it stays a counter (what a sum()
 * usually counts, bytes or nanoseconds, is never negative), and such a
 * script is better served by a gauge such as max().
 *
 * normalize() is not applied: a counter divided by a factor the script
 * may change at any time would not be a counter.
 *
 * Rows are merged by label set with the aggregation's own merge: keys
 * that print alike (a stack left out of the labels, see prom_family_init)
 * give one sample.
 */
#ifndef DSCOPE_PROMTEXT_H
#define DSCOPE_PROMTEXT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "rt/aggprint.h"
#include "spec/spec.h"

/* A growing text; rows past max are left out whole, and counted. */
struct prom_text {
	char *buf;
	size_t len, cap;
	size_t max;		/* bytes the text may take; 0: no bound */
	int left_out;		/* rows that would have gone past max */
};

void prom_text_put(struct prom_text *t, const char *s, size_t n);
void prom_text_printf(struct prom_text *t, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void prom_text_free(struct prom_text *t);

struct prom_table;

struct prom_family {
	const struct agg_desc *desc;
	const struct spec_field *keys;	/* desc->nkeys of them */
	char *name;			/* dscope_<aggregation> */
	char **labels;			/* one per key; NULL: left out */
	int64_t *le;			/* histograms: per bucket, the largest
					 * value it holds */
	bool *ghost;			/* llquantize: buckets no value
					 * reaches */
	int nbuckets;
	struct prom_table *offsets;	/* label set -> words before resets */
	const struct fmt_sym_ops *syms;	/* names symbol and stack keys */
};

/*
 * Label names: the key's own name (spec_field.name) where it has one
 * that is a valid label name not already taken, else k0, k1, ...;
 * names (a comma-separated list, or NULL) overrides them in order, an
 * empty entry keeping the default.  Stack keys (stack(), ustack()) are
 * labels only with stacks set, their frames joined by ';' from the
 * outermost (the folded format); otherwise they are left out and their
 * rows merge.  0, or -1 with a sentence in err.
 */
int prom_family_init(struct prom_family *f, const struct agg_desc *desc,
		     const struct spec_field *keys, const char *names,
		     bool stacks, const struct fmt_sym_ops *syms, char *err,
		     size_t errlen);
void prom_family_fini(struct prom_family *f);

/* The names of the samples f writes (at most 3), for collision checks. */
int prom_family_samples(const struct prom_family *f, char out[3][160]);

/* The family: # HELP, # TYPE, and a sample group per row of d. */
void prom_render(struct prom_text *t, struct prom_family *f,
		 const struct agg_data *d);

/*
 * A clear() or trunc() ran between snapshots before and after: every row
 * whose count went down was set back (or removed, maybe since re-created
 * by a probe), so what it had before joins its offset.  A counter only
 * goes down that way, so the comparison finds exactly the rows reset.
 */
void prom_note_reset(struct prom_family *f, const struct agg_data *before,
		     const struct agg_data *after);

#endif /* DSCOPE_PROMTEXT_H */
