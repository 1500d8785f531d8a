/*
 * aggprint.h -- aggregations: value layout, bucket rules, merging, sorting
 * and output, all as DTrace does them.
 *
 * An aggregation row is a key tuple and a vector of int64_t words, already
 * merged over CPUs by the caller (agg_merge); d/aggfunc.h gives the words
 * of each function.
 *
 * Output follows dtrace(1): at the end of a run it writes one "\n" (even
 * when quiet, and whether or not any aggregation has data), then every
 * aggregation not yet printed by printa(), in declaration order, each via
 * agg_print_default -- agg_print_all does all of that but the "\n".  A
 * printa() without a format is "\n" and then the same rows; agg_printa
 * writes that leading newline itself.
 *
 * Key values are fmt_vals carrying the key's declared D type: the column
 * width depends on it (a 4-byte int key prints in " %8d", an 8-byte one in
 * " %16lld", a string in "  %-50s").
 */
#ifndef DSCOPE_AGGPRINT_H
#define DSCOPE_AGGPRINT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "d/aggfunc.h"
#include "rt/format.h"

struct agg_row {
	const struct fmt_val *keys;	/* desc->nkeys of them */
	int64_t *data;			/* agg_nwords(desc) words */
	const unsigned char *raw;	/* the key as the kernel's map holds
					 * it (agg.c; NULL in other rows) */
};

/* One aggregation's rows, as a consumer keeps them. */
struct agg_data {
	const struct agg_desc *desc;
	struct agg_row **rows;
	int nrows;
};

/* The aggsortkey, aggsortrev, aggsortpos and aggsortkeypos options. */
struct agg_sort_opts {
	bool sortkey;		/* by key instead of by value */
	bool sortrev;		/* reverse every comparison */
	int sortpos;		/* joined printa: which aggregation sorts */
	int sortkeypos;		/* which key compares first */
};

uint32_t agg_nwords(const struct agg_desc *desc);
void agg_init(const struct agg_desc *desc, int64_t *data);
void agg_merge(enum agg_func func, int64_t *dst, const int64_t *src,
	       uint32_t nwords);

/* stddev as DTrace computes it: integer sqrt(E[x^2] - E[x]^2). */
uint64_t agg_stddev(const int64_t *data, uint64_t normal);

/*
 * The numbers the default format prints, for formats other than text:
 * a function's name ("count"); whether its value is a table of buckets;
 * the value of a count .. stddev row (stddev's is unsigned), normalized;
 * a bucket's count, normalized; and the values bucket b holds, [*lo,
 * *hi] (false for a bucket no value reaches).
 */
const char *agg_func_name(enum agg_func func);
bool agg_is_table(enum agg_func func);
int64_t agg_value(const struct agg_desc *desc, const int64_t *data);
int64_t agg_bucket_count(const struct agg_desc *desc, int64_t count);
bool agg_bucket_bounds(const struct agg_desc *desc, int b, int64_t *lo,
		       int64_t *hi);

/* Sort one aggregation's rows for printing. */
void agg_sort(struct agg_row **rows, int n, const struct agg_desc *desc,
	      const struct agg_sort_opts *opts);

/* The rows in the order given, without a leading blank line. */
void agg_print_default(FILE *out, const struct agg_desc *desc,
		       struct agg_row **rows, int n,
		       const struct fmt_sym_ops *syms);

/*
 * End of run: sort each aggregation's rows and print them all, in id
 * order (reversed with aggsortrev).  The caller passes only aggregations
 * printa() has not printed and writes the "\n" that precedes them.
 */
void agg_print_all(FILE *out, const struct agg_data *aggs, int naggs,
		   const struct agg_sort_opts *opts,
		   const struct fmt_sym_ops *syms);

/*
 * printa(fmt, @a, @b, ...): with f NULL the default format ("\n", then
 * key columns and one value column per aggregation).  Several
 * aggregations are joined on equal key tuples, a missing value printing
 * as zero; rows are sorted as DTrace sorts them (by the value of the
 * aggsortpos'th aggregation, then the next, then the key).  Each %@ in f
 * takes the next aggregation's value; surplus %@ repeat the last one.
 * Returns 0, or -1 when f needs more keys than the rows have.
 */
int agg_printa(FILE *out, const struct fmt *f, const struct agg_data *aggs,
	       int naggs, const struct agg_sort_opts *opts,
	       const struct fmt_sym_ops *syms);

#endif /* DSCOPE_AGGPRINT_H */
