/*
 * aggfunc.h -- D's aggregating functions: which there are, the words each
 * keeps, and the bucket rules of the quantizing ones.
 *
 * An aggregation keeps, per key, a vector of int64_t words; their layout
 * per function, shared by the BPF code that fills them and the runtime
 * that merges and prints them:
 *
 *   count      [n]
 *   sum        [s]
 *   min, max   [m, seen]        (m starts at INT64_MAX / INT64_MIN; seen is
 *                                1 on a CPU that has folded a value in)
 *   avg        [n, s]
 *   stddev     [n, s, sumsq_lo, sumsq_hi]   (sum of squares, 128-bit)
 *   quantize   [127 buckets]    see agg_quantize_bucket()
 *   lquantize  [levels + 2]     underflow, levels, overflow
 *   llquantize [agg_llquantize_nbuckets()]  see agg_llquantize_bucket()
 *
 * A per-CPU map entry created by one CPU reads as zeros on the others, so
 * min and max carry `seen': a CPU that never saw the key must not merge
 * its 0.  Every other layout has zero as its identity.
 *
 * The bucket functions are the specification the code generator follows;
 * the unit tests pin them down.
 */
#ifndef DSCOPE_AGGFUNC_H
#define DSCOPE_AGGFUNC_H

#include <stdint.h>

enum agg_func {
	AGG_COUNT, AGG_SUM, AGG_MIN, AGG_MAX, AGG_AVG, AGG_STDDEV,
	AGG_QUANTIZE, AGG_LQUANTIZE, AGG_LLQUANTIZE,
};

#define AGG_QUANTIZE_NBUCKETS 127
#define AGG_QUANTIZE_ZERO 63	/* the bucket of value 0 */

struct agg_desc {
	const char *name;	/* without '@' */
	int id;			/* declaration order: sorts aggregations */
	enum agg_func func;
	int nkeys;
	/*
	 * lquantize: base, limit, step.  llquantize: factor, low magnitude,
	 * high magnitude, steps per magnitude.
	 */
	int64_t params[4];
	uint64_t normal;	/* normalize() divisor; 0 means 1 */
};

/*
 * quantize: 0 -> 63; v > 0 -> 63 + 1 + floor(log2 v); v < 0 mirrored
 * below 63; INT64_MIN -> 0.  Bucket i stands for agg_quantize_value(i).
 */
int agg_quantize_bucket(int64_t v);
int64_t agg_quantize_value(int bucket);

/* lquantize: 0 below base, levels + 1 at or above limit. */
int agg_lquantize_levels(int64_t base, int64_t limit, int64_t step);
int agg_lquantize_bucket(int64_t v, int64_t base, int levels, int64_t step);

/*
 * llquantize: negative overflow at 0, the magnitudes of negative values,
 * an underflow bucket (|v| < factor^low) in the middle, the positive
 * magnitudes, positive overflow last.
 */
int agg_llquantize_nbuckets(int factor, int low, int high, int steps);
int agg_llquantize_bucket(int64_t v, int factor, int low, int high,
			  int steps);

/* For the printer's llquantize tables (rt/aggprint.c): base^exp, and the
 * index of the underflow bucket, between the negative and positive
 * magnitudes. */
uint64_t ipow(uint64_t base, int exp);
int ll_zero_bucket(int factor, int low, int high, int steps);

#endif /* DSCOPE_AGGFUNC_H */
