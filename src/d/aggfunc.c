/*
 * aggfunc.c -- the bucket rules of quantize, lquantize and llquantize, as
 * DTrace has them.  See aggfunc.h.
 */
#include "d/aggfunc.h"

/* ---- buckets ---------------------------------------------------------- */

int agg_quantize_bucket(int64_t v)
{
	uint64_t mag;
	int bits = 0;

	if (v == 0)
		return AGG_QUANTIZE_ZERO;
	if (v == INT64_MIN)
		return 0;
	mag = v < 0 ? (uint64_t)-v : (uint64_t)v;
	while (mag >>= 1)
		bits++;
	return v < 0 ? AGG_QUANTIZE_ZERO - 1 - bits
		     : AGG_QUANTIZE_ZERO + 1 + bits;
}

int64_t agg_quantize_value(int b)
{
	if (b < AGG_QUANTIZE_ZERO)
		return -(int64_t)(UINT64_C(1) << (AGG_QUANTIZE_ZERO - 1 - b));
	if (b == AGG_QUANTIZE_ZERO)
		return 0;
	return (int64_t)(UINT64_C(1) << (b - AGG_QUANTIZE_ZERO - 1));
}

int agg_lquantize_levels(int64_t base, int64_t limit, int64_t step)
{
	return step > 0 ? (int)((limit - base) / step) : 0;
}

int agg_lquantize_bucket(int64_t v, int64_t base, int levels, int64_t step)
{
	uint64_t level;

	if (step <= 0 || v < base)
		return 0;
	level = ((uint64_t)v - (uint64_t)base) / (uint64_t)step;
	if (level > (uint64_t)levels)
		level = (uint64_t)levels;
	return (int)level + 1;
}

uint64_t ipow(uint64_t base, int exp)
{
	uint64_t r = 1;

	while (exp-- > 0)
		r *= base;
	return r;
}

/* Buckets per magnitude: the low steps/factor overlap the magnitude below. */
static int ll_per_mag(int factor, int steps)
{
	return steps - steps / factor;
}

int ll_zero_bucket(int factor, int low, int high, int steps)
{
	return 1 + (high - low + 1) * ll_per_mag(factor, steps);
}

int agg_llquantize_nbuckets(int factor, int low, int high, int steps)
{
	return (high - low + 1) * ll_per_mag(factor, steps) * 2 + 3;
}

int agg_llquantize_bucket(int64_t v, int factor, int low, int high, int steps)
{
	int zero = ll_zero_bucket(factor, low, high, steps);
	uint64_t mag = v < 0 ? -(uint64_t)v : (uint64_t)v;
	uint64_t max = ipow((uint64_t)factor, low);
	uint64_t idx = 0;
	int m = low, bucket;

	if (mag < max)
		return zero;
	for (;;) {
		max *= (uint64_t)factor;
		if (mag < max) {
			/* Linear position within the magnitude, 0-based. */
			idx = m ? mag / (max / (uint64_t)steps)
				: mag * (uint64_t)steps / max;
			idx -= (uint64_t)(steps / factor);
			break;
		}
		if (++m > high)
			break;
	}
	bucket = (m - low) * ll_per_mag(factor, steps) + (int)idx + 1;
	return zero + (v < 0 ? -bucket : bucket);
}
