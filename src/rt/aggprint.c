/*
 * aggprint.c -- aggregation arithmetic, ordering and output.
 *
 * What an aggregating function needs after the BPF side has counted is
 * in one row of agg_ops[]: how two CPUs' words merge, how two rows
 * compare when sorting by value, and how the value prints in the default
 * format; how many words it keeps is agg_nwords()'s, as the quantizing
 * functions' counts depend on their parameters.  The rules are DTrace's, including
 * the ones that look accidental, because scripts' expected output depends
 * on them:
 *
 *  - a normalized value is divided *unsigned* wherever libdtrace divides
 *    an int64 by its uint64 normalization (the default sum/count column,
 *    the quantize counts, %@u), so a negative sum normalizes to garbage
 *    exactly as it does there;
 *  - rows compare by value first, then by key; integer keys compare as
 *    unsigned numbers of their own width and strings bytewise, so
 *    (char)-1 sorts after 2;
 *  - quantize tables show one empty bucket either side of the used range,
 *    and the bars of a table are scaled to its total (of absolute values).
 *
 * Sorting uses qsort_r with comparators that never return 0 for two rows
 * of one aggregation (keys are unique), so the order is deterministic; the
 * options a sort compares by travel in its context (struct sort_ctx), so
 * that sessions may print from several threads at once.
 */
#define _GNU_SOURCE	/* qsort_r */
#include "rt/aggprint.h"

#include <stdlib.h>
#include <string.h>

#include "d/funcs.h"

/* ---- stddev ----------------------------------------------------------- */

typedef unsigned __int128 u128;

static uint64_t isqrt128(u128 x)
{
	u128 r = 0, bit = (u128)1 << 126;

	while (bit > x)
		bit >>= 2;
	while (bit) {
		if (x >= r + bit) {
			x -= r + bit;
			r = (r >> 1) + bit;
		} else {
			r >>= 1;
		}
		bit >>= 2;
	}
	return (uint64_t)r;
}

uint64_t agg_stddev(const int64_t *data, uint64_t normal)
{
	u128 sumsq = ((u128)(uint64_t)data[3] << 64) | (uint64_t)data[2];
	u128 avg_sq, sq_avg;
	int64_t avg;

	if (data[0] == 0)
		return 0;
	if (normal == 0)
		normal = 1;
	avg_sq = sumsq / normal / (uint64_t)data[0];
	avg = data[1] / (int64_t)normal / data[0];
	if (avg < 0)
		avg = -avg;
	sq_avg = (u128)(uint64_t)avg * (uint64_t)avg;
	return isqrt128(avg_sq - sq_avg);
}

/* ---- the function table ---------------------------------------------- */

static uint64_t normal_of(const struct agg_desc *desc)
{
	return desc->normal ? desc->normal : 1;
}

/* libdtrace's `(long long)v / normal` with a uint64_t normal. */
static long long udiv(int64_t v, uint64_t normal)
{
	return (long long)((uint64_t)v / normal);
}

static int cmp_i64(int64_t a, int64_t b)
{
	return a < b ? -1 : a > b;
}

static int cmp_ld(long double a, long double b)
{
	return a < b ? -1 : a > b;
}

static int cmp_scalar(const struct agg_desc *d, const int64_t *a,
		      const int64_t *b)
{
	return cmp_i64(a[0], b[0]);
}

static int cmp_avg(const struct agg_desc *d, const int64_t *a,
		   const int64_t *b)
{
	return cmp_i64(a[0] ? a[1] / a[0] : 0, b[0] ? b[1] / b[0] : 0);
}

static int cmp_stddev(const struct agg_desc *d, const int64_t *a,
		      const int64_t *b)
{
	uint64_t x = agg_stddev(a, 1), y = agg_stddev(b, 1);

	return x < y ? -1 : x > y;
}

/* Tables compare by their weighted sum, then by the count at zero. */
static int cmp_quantize(const struct agg_desc *d, const int64_t *a,
			const int64_t *b)
{
	long double sa = 0, sb = 0;

	for (int i = 0; i < AGG_QUANTIZE_NBUCKETS; i++) {
		sa += (long double)agg_quantize_value(i) * (long double)a[i];
		sb += (long double)agg_quantize_value(i) * (long double)b[i];
	}
	if (cmp_ld(sa, sb))
		return cmp_ld(sa, sb);
	return cmp_i64(a[AGG_QUANTIZE_ZERO], b[AGG_QUANTIZE_ZERO]);
}

static int lq_levels(const struct agg_desc *d)
{
	return agg_lquantize_levels(d->params[0], d->params[1], d->params[2]);
}

/* Underflow weighs as base - 1, overflow as one past the last level. */
static long double lq_sum(const struct agg_desc *d, const int64_t *q)
{
	int32_t base = (int32_t)d->params[0];
	uint16_t step = (uint16_t)d->params[2];
	int levels = lq_levels(d);
	long double total = (long double)q[0] * (long double)(base - 1);

	for (int i = 0; i < levels; base += step, i++)
		total += (long double)q[i + 1] * (long double)base;
	return total + (long double)q[levels + 1] * (long double)(base + 1);
}

static int64_t lq_zero(const struct agg_desc *d, const int64_t *q)
{
	int32_t base = (int32_t)d->params[0];
	uint16_t step = (uint16_t)d->params[2];
	int levels = lq_levels(d);

	if (base - 1 == 0)
		return q[0];
	for (int i = 0; i < levels; base += step, i++)
		if (base == 0)
			return q[i + 1];
	return base + 1 == 0 ? q[levels + 1] : 0;
}

static int cmp_lquantize(const struct agg_desc *d, const int64_t *a,
			 const int64_t *b)
{
	int r = cmp_ld(lq_sum(d, a), lq_sum(d, b));

	return r ? r : cmp_i64(lq_zero(d, a), lq_zero(d, b));
}

struct llq {
	int factor, low, high, steps;
};

static struct llq llq_of(const struct agg_desc *d)
{
	return (struct llq){ (int)d->params[0], (int)d->params[1],
			     (int)d->params[2], (int)d->params[3] };
}

/* Each bucket pair (+/-) weighs as its lower bound. */
static long double llq_sum(const struct agg_desc *d, const int64_t *q)
{
	struct llq p = llq_of(d);
	int sf = p.steps / p.factor, low = p.low, i = 1;
	int zero = ll_zero_bucket(p.factor, p.low, p.high, p.steps);
	long double total = (long double)ipow((uint64_t)p.factor, low) *
			    (long double)(q[zero + 1] - q[zero - 1]);
	long double scale;

	if (low == 0 && p.steps > p.factor) {
		for (int step = 2; step <= p.factor; step++) {
			i += sf;
			total += step * (long double)(q[zero + i] - q[zero - i]);
		}
		low = 1;
	}
	scale = (long double)ipow((uint64_t)p.factor, low + 1) / p.steps;
	for (int mag = low; mag <= p.high; mag++) {
		for (int step = sf + 1; step <= p.steps; step++) {
			i++;
			total += step * scale *
				 (long double)(q[zero + i] - q[zero - i]);
		}
		scale *= p.factor;
	}
	return total;
}

static int cmp_llquantize(const struct agg_desc *d, const int64_t *a,
			  const int64_t *b)
{
	struct llq p = llq_of(d);
	int zero = ll_zero_bucket(p.factor, p.low, p.high, p.steps);
	int r = cmp_ld(llq_sum(d, a), llq_sum(d, b));

	return r ? r : cmp_i64(a[zero], b[zero]);
}

static void print_scalar(FILE *out, const struct agg_desc *d,
			 const int64_t *v);
static void print_avg(FILE *out, const struct agg_desc *d, const int64_t *v);
static void print_stddev(FILE *out, const struct agg_desc *d,
			 const int64_t *v);
static void print_quantize(FILE *out, const struct agg_desc *d,
			   const int64_t *v);
static void print_lquantize(FILE *out, const struct agg_desc *d,
			    const int64_t *v);
static void print_llquantize(FILE *out, const struct agg_desc *d,
			     const int64_t *v);

enum merge_kind { MERGE_ADD, MERGE_MIN, MERGE_MAX, MERGE_STDDEV };

static const struct agg_ops {
	enum merge_kind merge;
	int (*cmp)(const struct agg_desc *, const int64_t *, const int64_t *);
	void (*print)(FILE *, const struct agg_desc *, const int64_t *);
} agg_ops[] = {		/* ORDER: enum agg_func */
	[AGG_COUNT] = { MERGE_ADD, cmp_scalar, print_scalar },
	[AGG_SUM] = { MERGE_ADD, cmp_scalar, print_scalar },
	[AGG_MIN] = { MERGE_MIN, cmp_scalar, print_scalar },
	[AGG_MAX] = { MERGE_MAX, cmp_scalar, print_scalar },
	[AGG_AVG] = { MERGE_ADD, cmp_avg, print_avg },
	[AGG_STDDEV] = { MERGE_STDDEV, cmp_stddev, print_stddev },
	[AGG_QUANTIZE] = { MERGE_ADD, cmp_quantize, print_quantize },
	[AGG_LQUANTIZE] = { MERGE_ADD, cmp_lquantize, print_lquantize },
	[AGG_LLQUANTIZE] = { MERGE_ADD, cmp_llquantize, print_llquantize },
};

uint32_t agg_nwords(const struct agg_desc *d)
{
	struct llq p;

	switch (d->func) {
	case AGG_MIN:
	case AGG_MAX:
	case AGG_AVG:
		return 2;
	case AGG_STDDEV:
		return 4;
	case AGG_QUANTIZE:
		return AGG_QUANTIZE_NBUCKETS;
	case AGG_LQUANTIZE:
		return (uint32_t)lq_levels(d) + 2;
	case AGG_LLQUANTIZE:
		p = llq_of(d);
		return (uint32_t)agg_llquantize_nbuckets(p.factor, p.low,
							 p.high, p.steps);
	default:
		return 1;
	}
}

void agg_init(const struct agg_desc *d, int64_t *data)
{
	memset(data, 0, agg_nwords(d) * sizeof(*data));
	if (d->func == AGG_MIN)
		data[0] = INT64_MAX;
	else if (d->func == AGG_MAX)
		data[0] = INT64_MIN;
}

void agg_merge(enum agg_func func, int64_t *dst, const int64_t *src,
	       uint32_t nwords)
{
	switch (agg_ops[func].merge) {
	case MERGE_MIN:
		if (src[1] && src[0] < dst[0])
			dst[0] = src[0];
		dst[1] |= src[1];
		return;
	case MERGE_MAX:
		if (src[1] && src[0] > dst[0])
			dst[0] = src[0];
		dst[1] |= src[1];
		return;
	case MERGE_STDDEV: {
		u128 a = ((u128)(uint64_t)dst[3] << 64) | (uint64_t)dst[2];
		u128 b = ((u128)(uint64_t)src[3] << 64) | (uint64_t)src[2];

		dst[0] += src[0];
		dst[1] += src[1];
		a += b;
		dst[2] = (int64_t)(uint64_t)a;
		dst[3] = (int64_t)(uint64_t)(a >> 64);
		return;
	}
	case MERGE_ADD:
		for (uint32_t i = 0; i < nwords; i++)
			dst[i] = (int64_t)((uint64_t)dst[i] + (uint64_t)src[i]);
		return;
	}
}

/* ---- values for other formats (rt/oformat.h) ------------------------- */

static const enum dfunc func_rows[] = {	/* ORDER: enum agg_func */
	DF_COUNT, DF_SUM, DF_MIN, DF_MAX, DF_AVG, DF_STDDEV, DF_QUANTIZE,
	DF_LQUANTIZE, DF_LLQUANTIZE,
};

const char *agg_func_name(enum agg_func func)
{
	return dfunc_row(func_rows[func])->name;
}

bool agg_is_table(enum agg_func func)
{
	return func == AGG_QUANTIZE || func == AGG_LQUANTIZE ||
	       func == AGG_LLQUANTIZE;
}

int64_t agg_value(const struct agg_desc *d, const int64_t *v)
{
	switch (d->func) {
	case AGG_AVG:
		return v[0] ? v[1] / (int64_t)normal_of(d) / v[0] : 0;
	case AGG_STDDEV:
		return (int64_t)agg_stddev(v, normal_of(d));
	default:
		return udiv(v[0], normal_of(d));
	}
}

int64_t agg_bucket_count(const struct agg_desc *d, int64_t count)
{
	return udiv(count, normal_of(d));
}

static int bucket_of(const struct agg_desc *d, int64_t v)
{
	struct llq p = llq_of(d);

	if (d->func == AGG_QUANTIZE)
		return agg_quantize_bucket(v);
	if (d->func == AGG_LQUANTIZE)
		return agg_lquantize_bucket(v, d->params[0], lq_levels(d),
					    d->params[2]);
	return agg_llquantize_bucket(v, p.factor, p.low, p.high, p.steps);
}

/* The least value in bucket b or above, by bisection: every bucket
 * function grows with its value.  False if no value reaches b. */
static bool bucket_floor(const struct agg_desc *d, int b, int64_t *out)
{
	__int128 lo = INT64_MIN, hi = INT64_MAX;

	if (bucket_of(d, INT64_MAX) < b)
		return false;
	while (lo < hi) {
		__int128 mid = lo + (hi - lo) / 2;

		if (bucket_of(d, (int64_t)mid) >= b)
			hi = mid;
		else
			lo = mid + 1;
	}
	*out = (int64_t)lo;
	return true;
}

bool agg_bucket_bounds(const struct agg_desc *d, int b, int64_t *lo,
		       int64_t *hi)
{
	int64_t next;

	if (!bucket_floor(d, b, lo) || bucket_of(d, *lo) != b)
		return false;	/* no value lands in b */
	*hi = bucket_floor(d, b + 1, &next) ? next - 1 : INT64_MAX;
	return true;
}

/* ---- sorting ---------------------------------------------------------- */

/* What one sort compares by, handed to qsort_r's comparators. */
struct sort_ctx {
	struct agg_sort_opts opts;
	const struct agg_desc *desc;	/* agg_sort: the aggregation's */
	const struct agg_data *aggs;	/* joined printa: the aggregations */
	int naggs;			/* ... and how many */
};

static int rev(const struct sort_ctx *sc, int r)
{
	return sc->opts.sortrev ? -r : r;
}

static int key_size(const struct fmt_val *k)
{
	if (k->type.kind == T_PTR || k->type.kind == T_SYM)
		return 8;
	return (int)k->type.size;
}

/* One key, as libdtrace compares record bytes: unsigned, by width. */
static int cmp_key(const struct fmt_val *a, const struct fmt_val *b)
{
	int sa = key_size(a), sb = key_size(b);

	if (sa != sb)
		return sa < sb ? -1 : 1;
	if (a->type.kind == T_STRING) {
		int r = strncmp(a->s ? a->s : "", b->s ? b->s : "", (size_t)sa);

		return r < 0 ? -1 : r > 0;
	}
	if (a->type.kind == T_STACK) {
		int r = a->pcs && b->pcs ? memcmp(a->pcs, b->pcs, (size_t)sa) : 0;

		return r < 0 ? -1 : r > 0;
	}
	if (sa < 8) {
		uint64_t mask = (UINT64_C(1) << (sa * 8)) - 1;

		return (a->u & mask) < (b->u & mask) ? -1 :
		       (a->u & mask) > (b->u & mask);
	}
	return a->u < b->u ? -1 : a->u > b->u;
}

/* Keys from aggsortkeypos on, wrapping round to the first. */
static int cmp_keys(const struct sort_ctx *sc, const struct fmt_val *a,
		    const struct fmt_val *b, int n)
{
	int pos = sc->opts.sortkeypos;

	if (pos < 0 || pos >= n)
		pos = 0;
	for (int i = 0; i < n; i++) {
		int k = (i + pos) % n;
		int r = cmp_key(&a[k], &b[k]);

		if (r)
			return rev(sc, r);
	}
	return 0;
}

static int cmp_value(const struct sort_ctx *sc, const struct agg_desc *d,
		     const int64_t *a, const int64_t *b)
{
	return rev(sc, agg_ops[d->func].cmp(d, a, b));
}

static int cmp_rows(const void *pa, const void *pb, void *ctx)
{
	const struct agg_row *a = *(struct agg_row *const *)pa;
	const struct agg_row *b = *(struct agg_row *const *)pb;
	const struct sort_ctx *sc = ctx;
	int r;

	if (!sc->opts.sortkey && (r = cmp_value(sc, sc->desc, a->data, b->data)))
		return r;
	return cmp_keys(sc, a->keys, b->keys, sc->desc->nkeys);
}

void agg_sort(struct agg_row **rows, int n, const struct agg_desc *desc,
	      const struct agg_sort_opts *opts)
{
	struct sort_ctx sc = { .desc = desc };

	if (opts)
		sc.opts = *opts;
	if (n > 1)
		qsort_r(rows, (size_t)n, sizeof(*rows), cmp_rows, &sc);
}

/* ---- quantize tables -------------------------------------------------- */

static const char ats[] = "@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@";
static const char spaces[] = "                                        ";

static long double fabsld(long double x)
{
	return x < 0 ? -x : x;
}

/*
 * One bucket's bar and count.  With both signs in the table the bar is
 * half as long and grows left of a centre line for negative counts.
 */
static void quant_line(FILE *out, int64_t val, uint64_t normal,
		       long double total, bool pos, bool neg)
{
	int len = 40;
	unsigned depth = 0;

	if (total != 0)
		depth = (unsigned)(fabsld((long double)val) *
				   (pos && neg ? len / 2 : len) / total + 0.5);
	if (!neg) {
		if (!pos)
			depth = 0;
		fprintf(out, "|%s%s %-9lld\n", ats + len - depth,
			spaces + depth, udiv(val, normal));
	} else if (!pos) {
		fprintf(out, "%s%s| %-9lld\n", spaces + depth,
			ats + len - depth, udiv(val, normal));
	} else if (val <= 0) {
		fprintf(out, "%s%s|%*s %-9lld\n", spaces + len / 2 + depth,
			ats + len - depth, len / 2, "", udiv(val, normal));
	} else {
		fprintf(out, "%20s|%s%s %-9lld\n", "", ats + len - depth,
			spaces + len / 2 + depth, udiv(val, normal));
	}
}

static void quant_header(FILE *out)
{
	fprintf(out, "\n%16s %41s %-9s\n", "value",
		"------------- Distribution -------------", "count");
}

struct range {
	int first, last;
	long double total;
	bool pos, neg;
};

/* The used buckets, widened by one either side; empty gives [e0, e1]. */
static struct range used_range(const int64_t *q, int n, int e0, int e1,
			       bool widen)
{
	struct range r = { 0, n - 1, 0, false, false };

	while (r.first <= r.last && q[r.first] == 0)
		r.first++;
	if (r.first > r.last) {
		r.first = e0;
		r.last = e1;
	} else {
		while (r.last > 0 && q[r.last] == 0)
			r.last--;
		if (widen) {
			r.first -= r.first > 0;
			r.last += r.last < n - 1;
		}
	}
	for (int i = r.first; i <= r.last; i++) {
		r.pos |= q[i] > 0;
		r.neg |= q[i] < 0;
		r.total += fabsld((long double)q[i]);
	}
	return r;
}

static void print_quantize(FILE *out, const struct agg_desc *d,
			   const int64_t *q)
{
	struct range r = used_range(q, AGG_QUANTIZE_NBUCKETS,
				    AGG_QUANTIZE_ZERO - 1,
				    AGG_QUANTIZE_ZERO + 1, true);

	quant_header(out);
	for (int i = r.first; i <= r.last; i++) {
		fprintf(out, "%16lld ", (long long)agg_quantize_value(i));
		quant_line(out, q[i], normal_of(d), r.total, r.pos, r.neg);
	}
}

static void print_lquantize(FILE *out, const struct agg_desc *d,
			    const int64_t *q)
{
	int32_t base = (int32_t)d->params[0];
	int step = (uint16_t)d->params[2], levels = lq_levels(d);
	struct range r = used_range(q, levels + 2, 0, 2, true);
	char c[32];

	quant_header(out);
	for (int i = r.first; i <= r.last; i++) {
		if (i == 0)
			snprintf(c, sizeof(c), "< %d", base);
		else if (i == levels + 1)
			snprintf(c, sizeof(c), ">= %d", base + levels * step);
		else
			snprintf(c, sizeof(c), "%d", base + (i - 1) * step);
		fprintf(out, "%16s ", c);
		quant_line(out, q[i], normal_of(d), r.total, r.pos, r.neg);
	}
}

#define LLQ_LABEL 16

/*
 * llquantize labels.  With low == 0 and steps > factor, the first
 * magnitude has fewer distinct values than buckets; the buckets no value
 * can reach ("ghost" buckets) get no label and are skipped, except that an
 * end of the printed range landing on one borrows the nearest label.
 */
struct llq_labels {
	char (*c)[LLQ_LABEL];
	int first, pad;		/* c[0] is bucket first - pad */
	int last;
};

static void ll_label(struct llq_labels *l, int b, const char *fmt,
		     unsigned long long v)
{
	if (b < l->first - l->pad || b > l->last + l->pad)
		return;
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
	snprintf(l->c[b - l->first + l->pad], LLQ_LABEL, fmt, v);
#pragma GCC diagnostic pop
}

static void ll_labels(struct llq_labels *l, struct llq p, int nbins)
{
	int zero = ll_zero_bucket(p.factor, p.low, p.high, p.steps);
	int sf = p.steps / p.factor, mag = p.low, i = 1;
	unsigned long long scale = ipow((uint64_t)p.factor, p.low);

	if (scale == 1)
		ll_label(l, zero, "%llu", 0);
	else
		ll_label(l, zero, l->first >= zero ? "< %llu" : "abs() < %llu",
			 scale);
	ll_label(l, zero - 1, "-%llu", scale);
	ll_label(l, zero + 1, "%llu", scale);
	if (p.low == 0 && p.steps > p.factor) {
		for (int step = 2; step <= p.factor; step++) {
			i += sf;
			ll_label(l, zero - i, "-%llu", (unsigned long long)step);
			ll_label(l, zero + i, "%llu", (unsigned long long)step);
		}
		mag++;
	}
	scale = ipow((uint64_t)p.factor, mag + 1) / (uint64_t)p.steps;
	for (; mag <= p.high; mag++) {
		for (int step = sf + 1; step <= p.steps; step++) {
			i++;
			ll_label(l, zero - i, "-%llu", step * scale);
			ll_label(l, zero + i, "%llu", step * scale);
		}
		scale *= (uint64_t)p.factor;
	}
	scale = ipow((uint64_t)p.factor, p.high + 1);
	ll_label(l, 0, "<= -%llu", scale);
	ll_label(l, nbins - 1, ">= %llu", scale);
}

/* An unlabelled end bucket takes the label of the nearest ghost-side one. */
static void ll_fix_end(struct llq_labels *l, int b, int dir)
{
	char *end = l->c[b - l->first + l->pad];
	int i;

	if (end[0])
		return;
	for (i = 1; i < l->pad; i++)
		if (l->c[b - l->first + l->pad + dir * i][0])
			break;
	if (i < l->pad)
		memcpy(end, l->c[b - l->first + l->pad + dir * i], LLQ_LABEL);
}

static void print_llquantize(FILE *out, const struct agg_desc *d,
			     const int64_t *q)
{
	struct llq p = llq_of(d);
	int nbins = agg_llquantize_nbuckets(p.factor, p.low, p.high, p.steps);
	int zero = ll_zero_bucket(p.factor, p.low, p.high, p.steps);
	struct range r = used_range(q, nbins, zero + 1, zero + 1, false);
	struct llq_labels l;

	quant_header(out);
	r.first -= r.first > 0;
	r.last += r.last < nbins - 1;
	l.first = r.first;
	l.last = r.last;
	l.pad = p.low == 0 && p.steps > p.factor ? p.steps / p.factor : 0;
	l.c = calloc((size_t)(r.last - r.first + 1 + 2 * l.pad), LLQ_LABEL);
	if (!l.c)
		abort();
	ll_labels(&l, p, nbins);
	if (l.pad > 0) {
		ll_fix_end(&l, r.first, -1);
		ll_fix_end(&l, r.last, 1);
	}
	for (int i = r.first; i <= r.last; i++) {
		const char *label = l.c[i - r.first + l.pad];

		if (!label[0])
			continue;
		fprintf(out, "%16s ", label);
		quant_line(out, q[i], normal_of(d), r.total, r.pos, r.neg);
	}
	free(l.c);
}

/* ---- default output --------------------------------------------------- */

static void print_scalar(FILE *out, const struct agg_desc *d, const int64_t *v)
{
	fprintf(out, " %16lld", udiv(v[0], normal_of(d)));
}

static void print_avg(FILE *out, const struct agg_desc *d, const int64_t *v)
{
	fprintf(out, " %16lld",
		v[0] ? (long long)(v[1] / (int64_t)normal_of(d) / v[0]) : 0);
}

static void print_stddev(FILE *out, const struct agg_desc *d, const int64_t *v)
{
	fprintf(out, " %16llu", (unsigned long long)agg_stddev(v, normal_of(d)));
}

/*
 * A string key: printable text (with trailing NULs only) prints as
 * "  %-50s"; the empty string is not text to libdtrace and prints as a
 * hex dump of its bytes.
 */
static void print_string_key(FILE *out, const struct fmt_val *k)
{
	const char *s = k->s ? k->s : "";
	uint32_t n = k->type.size, i;

	if (s[0]) {
		fprintf(out, "  %-50.*s", (int)strnlen(s, n ? n : strlen(s)), s);
		return;
	}
	fprintf(out, "\n%5s      ", "");
	for (i = 0; i < 16; i++)
		fprintf(out, "  %c", "0123456789abcdef"[i]);
	fprintf(out, "  0123456789abcdef\n");
	for (i = 0; i < n; i += 16) {
		uint32_t j;

		fprintf(out, "%5s%5x:", "", i);
		for (j = i; j < i + 16 && j < n; j++)
			fprintf(out, " %02x", 0);
		for (; j % 16; j++)
			fprintf(out, "   ");
		fprintf(out, "  ");
		for (j = i; j < i + 16 && j < n; j++)
			fputc('.', out);
		fputc('\n', out);
	}
}

static void print_sym_key(FILE *out, const struct fmt_val *k,
			  const struct fmt_sym_ops *syms)
{
	char buf[512];

	fmt_symbol(k, syms, buf, sizeof(buf));
	fprintf(out, "  %-50s", buf);
}

/* A key column: its format depends on the key's declared width. */
static void print_key(FILE *out, const struct fmt_val *k,
		      const struct fmt_sym_ops *syms)
{
	if (k->type.sym != DSYM_NONE) {
		print_sym_key(out, k, syms);
		return;
	}
	switch (k->type.kind) {
	case T_STRING:
		print_string_key(out, k);
		return;
	case T_STACK:
		fmt_stack(out, k, NULL, syms, syms && syms->stackindent >= 0 ?
			  syms->stackindent : 14);
		return;
	default:
		break;
	}
	switch (key_size(k)) {
	case 1:
		fprintf(out, " %3d", (int)(uint8_t)k->u);
		break;
	case 2:
		fprintf(out, " %5d", (int)(uint16_t)k->u);
		break;
	case 4:
		fprintf(out, " %8d", (int)(uint32_t)k->u);
		break;
	default:
		fprintf(out, " %16lld", (long long)k->u);
		break;
	}
}

static void print_keys(FILE *out, const struct fmt_val *keys, int n,
		       const struct fmt_sym_ops *syms)
{
	for (int i = 0; i < n; i++)
		print_key(out, &keys[i], syms);
}

void agg_print_default(FILE *out, const struct agg_desc *desc,
		       struct agg_row **rows, int n,
		       const struct fmt_sym_ops *syms)
{
	for (int i = 0; i < n; i++) {
		print_keys(out, rows[i]->keys, desc->nkeys, syms);
		agg_ops[desc->func].print(out, desc, rows[i]->data);
		fputc('\n', out);
	}
}

static int cmp_agg_ids(const void *pa, const void *pb, void *ctx)
{
	const struct agg_data *a = pa, *b = pb;

	return rev(ctx, a->desc->id < b->desc->id ? -1 : a->desc->id > b->desc->id);
}

void agg_print_all(FILE *out, const struct agg_data *aggs, int naggs,
		   const struct agg_sort_opts *opts,
		   const struct fmt_sym_ops *syms)
{
	struct agg_data *order = malloc(sizeof(*order) * (size_t)(naggs + 1));
	struct sort_ctx sc = { 0 };

	if (!order)
		abort();
	if (opts)
		sc.opts = *opts;
	memcpy(order, aggs, sizeof(*order) * (size_t)naggs);
	qsort_r(order, (size_t)naggs, sizeof(*order), cmp_agg_ids, &sc);
	for (int i = 0; i < naggs; i++) {
		agg_sort(order[i].rows, order[i].nrows, order[i].desc, opts);
		agg_print_default(out, order[i].desc, order[i].rows,
				  order[i].nrows, syms);
	}
	free(order);
}

/* ---- printa ----------------------------------------------------------- */

/*
 * A joined row: the value of every aggregation for one key tuple, zeros
 * where an aggregation has no such key.
 */
struct bundle {
	const struct fmt_val *keys;
	const int64_t **data;	/* naggs value vectors */
};

struct printa_ctx {
	const struct agg_data *aggs;
	int naggs;
	const struct bundle *b;
	const struct fmt_sym_ops *syms;
};

/* %@ on one aggregation's value, as libdtrace's printa conversions do. */
static int print_agg_value(void *arg, FILE *out, int aggidx,
			   const struct fmt_conv *c, const char *cprefix)
{
	const struct printa_ctx *p = arg;
	int k = aggidx < p->naggs ? aggidx : p->naggs - 1;
	const struct agg_desc *d = p->aggs[k].desc;
	const int64_t *v = p->b->data[k];
	uint64_t normal = normal_of(d);
	bool is_signed = d->func != AGG_COUNT;
	struct fmt_val val = { .type = { T_INT, 8, is_signed, 0, NULL } };

	switch (d->func) {
	case AGG_AVG:	/* libdtrace divides the words as unsigned here */
		val.u = v[0] ? (uint64_t)v[1] / normal / (uint64_t)v[0] : 0;
		break;
	case AGG_STDDEV:
		val.u = agg_stddev(v, normal);
		break;
	case AGG_QUANTIZE:
	case AGG_LQUANTIZE:
	case AGG_LLQUANTIZE:
		agg_ops[d->func].print(out, d, v);
		return 0;
	default:
		val.u = fmt_conv_is_signed(c, is_signed) ?
			(uint64_t)(v[0] / (int64_t)normal) :
			(uint64_t)v[0] / normal;
		break;
	}
	return fmt_print_value(out, c, cprefix, &val, p->syms);
}

static int print_bundle(FILE *out, const struct fmt *f,
			const struct printa_ctx *p)
{
	const struct agg_desc *d0 = p->aggs[0].desc;
	struct fmt_agg_hook hook = { print_agg_value, (void *)p };

	if (f)
		return fmt_print_hooked(out, f, p->b->keys, d0->nkeys, p->syms,
					&hook) < 0 ? -1 : 0;
	print_keys(out, p->b->keys, d0->nkeys, p->syms);
	for (int k = 0; k < p->naggs; k++)
		agg_ops[p->aggs[k].desc->func].print(out, p->aggs[k].desc,
						     p->b->data[k]);
	fputc('\n', out);
	return 0;
}

/* Bundles sort by each aggregation's value from aggsortpos on, then key. */
static int cmp_bundles(const void *pa, const void *pb, void *ctx)
{
	const struct bundle *a = pa, *b = pb;
	const struct sort_ctx *sc = ctx;
	int n = sc->naggs, nkeys = sc->aggs[0].desc->nkeys, r;

	if (sc->opts.sortkey && (r = cmp_keys(sc, a->keys, b->keys, nkeys)))
		return r;
	for (int i = 0; i < n; i++) {
		int k = (i + sc->opts.sortpos) % n;

		if ((r = cmp_value(sc, sc->aggs[k].desc, a->data[k], b->data[k])))
			return r;
	}
	return sc->opts.sortkey ? 0 : cmp_keys(sc, a->keys, b->keys, nkeys);
}

/* Find the row of aggregation k with the given keys; NULL if none. */
static const struct agg_row *find_row(const struct agg_data *a,
				      const struct fmt_val *keys, int nkeys)
{
	for (int i = 0; i < a->nrows; i++) {
		int j;

		for (j = 0; j < nkeys; j++)
			if (cmp_key(&a->rows[i]->keys[j], &keys[j]))
				break;
		if (j == nkeys)
			return a->rows[i];
	}
	return NULL;
}

/* Every distinct key tuple among the aggregations, with its values. */
static int make_bundles(const struct agg_data *aggs, int naggs,
			int64_t **zeros, struct bundle **out)
{
	int nkeys = aggs[0].desc->nkeys, cap = 0, n = 0;
	struct bundle *b;

	for (int k = 0; k < naggs; k++)
		cap += aggs[k].nrows;
	b = calloc((size_t)cap + 1, sizeof(*b));
	if (!b)
		abort();
	for (int k = 0; k < naggs; k++) {
		for (int i = 0; i < aggs[k].nrows; i++) {
			const struct fmt_val *keys = aggs[k].rows[i]->keys;
			int seen = 0;

			for (int m = 0; m < k && !seen; m++)
				seen = find_row(&aggs[m], keys, nkeys) != NULL;
			if (seen)
				continue;
			b[n].keys = keys;
			b[n].data = calloc((size_t)naggs, sizeof(*b[n].data));
			if (!b[n].data)
				abort();
			for (int m = 0; m < naggs; m++) {
				const struct agg_row *r =
					find_row(&aggs[m], keys, nkeys);

				b[n].data[m] = r ? r->data : zeros[m];
			}
			n++;
		}
	}
	*out = b;
	return n;
}

static int printa_joined(FILE *out, const struct fmt *f,
			 const struct agg_data *aggs, int naggs,
			 const struct agg_sort_opts *opts,
			 const struct fmt_sym_ops *syms)
{
	struct sort_ctx sc = { .aggs = aggs, .naggs = naggs };
	int64_t **zeros = calloc((size_t)naggs, sizeof(*zeros));
	struct bundle *b;
	int n, rc = 0;

	if (!zeros)
		abort();
	for (int k = 0; k < naggs; k++) {
		zeros[k] = calloc(agg_nwords(aggs[k].desc), sizeof(int64_t));
		if (!zeros[k])
			abort();
	}
	n = make_bundles(aggs, naggs, zeros, &b);
	if (opts)
		sc.opts = *opts;
	if (sc.opts.sortpos < 0 || sc.opts.sortpos >= naggs)
		sc.opts.sortpos = 0;
	qsort_r(b, (size_t)n, sizeof(*b), cmp_bundles, &sc);
	for (int i = 0; i < n && rc == 0; i++) {
		struct printa_ctx p = { aggs, naggs, &b[i], syms };

		rc = print_bundle(out, f, &p);
	}
	for (int i = 0; i < n; i++)
		free(b[i].data);
	for (int k = 0; k < naggs; k++)
		free(zeros[k]);
	free(b);
	free(zeros);
	return rc;
}

int agg_printa(FILE *out, const struct fmt *f, const struct agg_data *aggs,
	       int naggs, const struct agg_sort_opts *opts,
	       const struct fmt_sym_ops *syms)
{
	const struct agg_data *a = &aggs[0];
	int rc = 0;

	if (!f)
		fputc('\n', out);
	if (naggs > 1)
		return printa_joined(out, f, aggs, naggs, opts, syms);
	agg_sort(a->rows, a->nrows, a->desc, opts);
	for (int i = 0; i < a->nrows && rc == 0; i++) {
		const int64_t *data = a->rows[i]->data;
		struct bundle b = { a->rows[i]->keys, &data };
		struct printa_ctx p = { aggs, 1, &b, syms };

		rc = print_bundle(out, f, &p);
	}
	return rc;
}
