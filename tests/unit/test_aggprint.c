/*
 * test_aggprint.c -- aggregation buckets, merging, sorting and output,
 * checked against excerpts of the peer suite's expected output (aggs/,
 * printa/, multiaggs/).
 */
#include "test.h"

#include <setjmp.h>
#include <stdlib.h>

#include "rt/aggprint.h"

#define MAXROWS 32

/* A little aggregation under construction: rows keyed by fmt_vals. */
struct tagg {
	struct agg_desc desc;
	struct agg_row rowv[MAXROWS], *rows[MAXROWS];
	struct fmt_val keys[MAXROWS][4];
	int64_t *data[MAXROWS];
	int n;
};

static struct fmt_val ikey(int64_t v, uint32_t size, bool is_signed)
{
	struct fmt_val k = { .type = { T_INT, size, is_signed, 0, NULL } };

	k.u = (uint64_t)v;
	return k;
}

static struct fmt_val skey(const char *s)
{
	struct fmt_val k = { .type = { T_STRING, 256, false, 0, "string" } };

	k.s = s;
	return k;
}

static void tagg_init(struct tagg *t, enum agg_func func, int id, int nkeys)
{
	memset(t, 0, sizeof(*t));
	t->desc.func = func;
	t->desc.id = id;
	t->desc.nkeys = nkeys;
}

/* The row for keys, created on first use. */
static int64_t *tagg_row(struct tagg *t, const struct fmt_val *keys)
{
	for (int i = 0; i < t->n; i++) {
		int j;

		for (j = 0; j < t->desc.nkeys; j++) {
			const struct fmt_val *a = &t->keys[i][j], *b = &keys[j];

			if (a->type.kind == T_STRING ? strcmp(a->s, b->s) != 0
						     : a->u != b->u)
				break;
		}
		if (j == t->desc.nkeys)
			return t->data[i];
	}
	if (t->desc.nkeys)
		memcpy(t->keys[t->n], keys,
		       sizeof(*keys) * (size_t)t->desc.nkeys);
	t->data[t->n] = calloc(agg_nwords(&t->desc), sizeof(int64_t));
	agg_init(&t->desc, t->data[t->n]);
	t->rowv[t->n].keys = t->keys[t->n];
	t->rowv[t->n].data = t->data[t->n];
	t->rows[t->n] = &t->rowv[t->n];
	return t->data[t->n++];
}

/* What the BPF side does for @[keys] = func(v): fold v into a row. */
static void tagg_add(struct tagg *t, const struct fmt_val *keys, int64_t v)
{
	const struct agg_desc *d = &t->desc;
	int64_t *row = tagg_row(t, keys);
	int64_t one[AGG_QUANTIZE_NBUCKETS + 64] = { 0 };
	__int128 sq = (__int128)v * v;

	switch (d->func) {
	case AGG_COUNT: one[0] = 1; break;
	case AGG_SUM: one[0] = v; break;
	case AGG_MIN: case AGG_MAX: one[0] = v; one[1] = 1; break;
	case AGG_AVG: one[0] = 1; one[1] = v; break;
	case AGG_STDDEV:
		one[0] = 1;
		one[1] = v;
		one[2] = (int64_t)(uint64_t)sq;
		one[3] = (int64_t)(uint64_t)((unsigned __int128)sq >> 64);
		break;
	case AGG_QUANTIZE: one[agg_quantize_bucket(v)] = 1; break;
	case AGG_LQUANTIZE:
		one[agg_lquantize_bucket(v, d->params[0],
			agg_lquantize_levels(d->params[0], d->params[1],
					     d->params[2]), d->params[2])] = 1;
		break;
	case AGG_LLQUANTIZE:
		one[agg_llquantize_bucket(v, (int)d->params[0],
			(int)d->params[1], (int)d->params[2],
			(int)d->params[3])] = 1;
		break;
	}
	agg_merge(d->func, row, one, agg_nwords(d));
}

static void tagg_free(struct tagg *t)
{
	for (int i = 0; i < t->n; i++)
		free(t->data[i]);
}

static struct agg_data tagg_data(struct tagg *t)
{
	return (struct agg_data){ &t->desc, t->rows, t->n };
}

/* Capture output: open with cap_open, finish with cap_str. */
struct cap {
	char *buf;
	size_t len;
	FILE *f;
};

static FILE *cap_open(struct cap *c)
{
	c->buf = NULL;
	c->len = 0;
	c->f = open_memstream(&c->buf, &c->len);
	return c->f;
}

static char *cap_str(struct cap *c)
{
	fclose(c->f);
	return c->buf;
}

static char *print_all(struct tagg *t, int n, const struct agg_sort_opts *o)
{
	struct agg_data d[8];
	struct cap c;

	for (int i = 0; i < n; i++)
		d[i] = tagg_data(&t[i]);
	agg_print_all(cap_open(&c), d, n, o, NULL);
	return cap_str(&c);
}

static struct fmt *parse(struct arena *a, const char *s)
{
	struct diag d = { 0 };
	jmp_buf env;
	struct fmt *f = NULL;

	d.env = &env;
	if (setjmp(env))
		return NULL;
	fmt_parse(a, s, &f, &d, 1, 1);
	return f;
}

static char *printa(const char *fmt, struct tagg *t, int n,
		    const struct agg_sort_opts *o)
{
	struct arena a = { 0 };
	struct agg_data d[8];
	struct cap c;

	for (int i = 0; i < n; i++)
		d[i] = tagg_data(&t[i]);
	agg_printa(cap_open(&c), fmt ? parse(&a, fmt) : NULL, d, n, o, NULL);
	arena_free(&a);
	return cap_str(&c);
}

#define CHECK_FREE(got, want)                                             \
	do {                                                              \
		char *got_ = (got);                                         \
		CHECK_STR(got_, want);                                      \
		free(got_);                                                 \
	} while (0)

TEST(agg_quantize_buckets)
{
	CHECK(agg_quantize_bucket(0) == 63);
	CHECK(agg_quantize_bucket(1) == 64);
	CHECK(agg_quantize_bucket(2) == 65);
	CHECK(agg_quantize_bucket(3) == 65);
	CHECK(agg_quantize_bucket(4) == 66);
	CHECK(agg_quantize_bucket(100) == 70);	/* 64..127 */
	CHECK(agg_quantize_bucket(-1) == 62);
	CHECK(agg_quantize_bucket(-3) == 61);
	CHECK(agg_quantize_bucket(INT64_MAX) == 126);
	CHECK(agg_quantize_bucket(INT64_MIN) == 0);
	CHECK(agg_quantize_bucket(INT64_MIN + 1) == 0);
	CHECK(agg_quantize_bucket(-(INT64_C(1) << 62) + 1) == 1);
	CHECK(agg_quantize_value(70) == 64);
	CHECK(agg_quantize_value(62) == -1);
	CHECK(agg_quantize_value(0) == -(INT64_C(1) << 62));
	CHECK(agg_quantize_value(126) == INT64_C(1) << 62);
}

TEST(agg_lquantize_buckets)
{
	int levels = agg_lquantize_levels(-100, 1100, 100);

	CHECK(levels == 12);
	CHECK(agg_lquantize_bucket(-101, -100, levels, 100) == 0);
	CHECK(agg_lquantize_bucket(-100, -100, levels, 100) == 1);
	CHECK(agg_lquantize_bucket(0, -100, levels, 100) == 2);
	CHECK(agg_lquantize_bucket(99, -100, levels, 100) == 2);
	CHECK(agg_lquantize_bucket(1099, -100, levels, 100) == 12);
	CHECK(agg_lquantize_bucket(1100, -100, levels, 100) == 13);
	CHECK(agg_lquantize_bucket(INT64_MAX, -100, levels, 100) == 13);
}

TEST(agg_llquantize_buckets)
{
	/* factor 10, magnitudes 0..5, 5 steps: 5 buckets a magnitude */
	int n = agg_llquantize_nbuckets(10, 0, 5, 5), zero = 1 + 6 * 5;

	CHECK(n == 2 * 30 + 3);
	CHECK(agg_llquantize_bucket(0, 10, 0, 5, 5) == zero);
	CHECK(agg_llquantize_bucket(1, 10, 0, 5, 5) == zero + 1);
	CHECK(agg_llquantize_bucket(-1, 10, 0, 5, 5) == zero - 1);
	CHECK(agg_llquantize_bucket(3, 10, 0, 5, 5) == zero + 2);
	CHECK(agg_llquantize_bucket(10, 10, 0, 5, 5) == zero + 6);
	CHECK(agg_llquantize_bucket(320, 10, 0, 5, 5) == zero + 12);
	/* factor 10, magnitudes 0..2, 20 steps: 18 buckets a magnitude */
	zero = 1 + 3 * 18;
	CHECK(agg_llquantize_bucket(0, 10, 0, 2, 20) == zero);
	CHECK(agg_llquantize_bucket(1, 10, 0, 2, 20) == zero + 1);
	CHECK(agg_llquantize_bucket(2, 10, 0, 2, 20) == zero + 3);
	CHECK(agg_llquantize_bucket(10, 10, 0, 2, 20) == zero + 19);
	CHECK(agg_llquantize_bucket(15, 10, 0, 2, 20) == zero + 20);
	CHECK(agg_llquantize_bucket(1000000, 10, 0, 5, 5) == n - 1);
	CHECK(agg_llquantize_bucket(-1000000, 10, 0, 5, 5) == 0);
}

TEST(agg_merge_rules)
{
	int64_t a[4] = { 3, 10, -1, 0 }, b[4] = { 2, 5, 7, 0 };
	int64_t m[2] = { 5, 1 }, n[2] = { 9, 1 }, unseen[2] = { 0, 0 };
	int64_t neg[2] = { -100, 1 };

	agg_merge(AGG_STDDEV, a, b, 4);
	CHECK(a[0] == 5 && a[1] == 15 && a[2] == 6 && a[3] == 1);
	agg_merge(AGG_MIN, m, n, 2);
	CHECK(m[0] == 5);
	agg_merge(AGG_MAX, m, n, 2);
	CHECK(m[0] == 9);
	/* a CPU that never saw the key reads as zeros: not a value of 0 */
	agg_merge(AGG_MAX, neg, unseen, 2);
	CHECK(neg[0] == -100 && neg[1] == 1);
	m[0] = 5;
	agg_merge(AGG_MIN, m, unseen, 2);
	CHECK(m[0] == 5);
}

TEST(agg_scalar_defaults)
{
	struct tagg t[3];

	/* aggs/tst.count_notquiet.r, tst.avg_neg.r, tst.max_neg.r */
	tagg_init(&t[0], AGG_COUNT, 1, 0);
	for (int i = 0; i < 10; i++)
		tagg_add(&t[0], NULL, 0);
	tagg_init(&t[1], AGG_AVG, 2, 0);
	tagg_add(&t[1], NULL, 0);
	tagg_add(&t[1], NULL, -900);
	tagg_init(&t[2], AGG_MAX, 3, 0);
	tagg_add(&t[2], NULL, -100);
	tagg_add(&t[2], NULL, -900);
	CHECK_FREE(print_all(t, 3, NULL), "               10\n"
		   "             -450\n"
		   "             -100\n");
	for (int i = 0; i < 3; i++)
		tagg_free(&t[i]);
}

TEST(agg_stddev_default)
{
	struct tagg t[2];

	/* aggs/tst.stddev.r */
	tagg_init(&t[0], AGG_STDDEV, 1, 0);
	tagg_init(&t[1], AGG_STDDEV, 2, 0);
	for (int64_t i = 0; i < 10; i++) {
		tagg_add(&t[0], NULL, 5000000000 + i * 100);
		tagg_add(&t[1], NULL, -5000000000 - i * 100);
	}
	CHECK_FREE(print_all(t, 2, NULL), "              287\n"
		   "              287\n");
	tagg_free(&t[0]);
	tagg_free(&t[1]);
}

#define QHDR "           value  ------------- Distribution ------------- count    \n"
#define BAR40 "@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@"
#define NOBAR "                                        "

TEST(agg_quantize_default)
{
	struct tagg t;

	/* aggs/tst.quantize.r, keys 0 and 100 (int keys: " %8d") */
	tagg_init(&t, AGG_QUANTIZE, 1, 1);
	tagg_add(&t, (struct fmt_val[]){ ikey(100, 4, true) }, 100);
	tagg_add(&t, (struct fmt_val[]){ ikey(0, 4, true) }, 0);
	CHECK_FREE(print_all(&t, 1, NULL),
		   "        0\n" QHDR
		   "              -1 |" NOBAR " 0        \n"
		   "               0 |" BAR40 " 1        \n"
		   "               1 |" NOBAR " 0        \n\n"
		   "      100\n" QHDR
		   "              32 |" NOBAR " 0        \n"
		   "              64 |" BAR40 " 1        \n"
		   "             128 |" NOBAR " 0        \n\n");
	tagg_free(&t);
}

TEST(agg_lquantize_default)
{
	struct tagg t;

	/* aggs/tst.lquantize.r, keys 0 and 900 */
	tagg_init(&t, AGG_LQUANTIZE, 1, 1);
	t.desc.params[0] = -100;
	t.desc.params[1] = 1100;
	t.desc.params[2] = 100;
	tagg_add(&t, (struct fmt_val[]){ ikey(900, 4, true) }, 900);
	tagg_add(&t, (struct fmt_val[]){ ikey(0, 4, true) }, 0);
	CHECK_FREE(print_all(&t, 1, NULL),
		   "        0\n" QHDR
		   "            -100 |" NOBAR " 0        \n"
		   "               0 |" BAR40 " 1        \n"
		   "             100 |" NOBAR " 0        \n\n"
		   "      900\n" QHDR
		   "             800 |" NOBAR " 0        \n"
		   "             900 |" BAR40 " 1        \n"
		   "            1000 |" NOBAR " 0        \n\n");
	tagg_free(&t);
}

TEST(agg_printa_basics)
{
	struct tagg t;

	/* printa/tst.basics.r: @c, @g, @h, @i */
	tagg_init(&t, AGG_LQUANTIZE, 1, 0);
	t.desc.params[0] = 1;
	t.desc.params[1] = 10;
	t.desc.params[2] = 1;
	tagg_add(&t, NULL, 1);
	CHECK_FREE(printa("@c = %@d\n", &t, 1, NULL), "@c = \n" QHDR
		   "             < 1 |" NOBAR " 0        \n"
		   "               1 |" BAR40 " 1        \n"
		   "               2 |" NOBAR " 0        \n\n");
	tagg_free(&t);

	tagg_init(&t, AGG_QUANTIZE, 1, 0);
	tagg_add(&t, NULL, 1);
	CHECK_FREE(printa("@g = %@d\n", &t, 1, NULL), "@g = \n" QHDR
		   "               0 |" NOBAR " 0        \n"
		   "               1 |" BAR40 " 1        \n"
		   "               2 |" NOBAR " 0        \n\n");
	tagg_free(&t);

	tagg_init(&t, AGG_LLQUANTIZE, 1, 0);
	t.desc.params[0] = 10;
	t.desc.params[1] = 0;
	t.desc.params[2] = 5;
	t.desc.params[3] = 5;
	for (int i = 0; i < 8; i++)
		tagg_add(&t, NULL, 320);
	CHECK_FREE(printa("@h = %@d\n", &t, 1, NULL), "@h = \n" QHDR
		   "             100 |" NOBAR " 0        \n"
		   "             200 |" BAR40 " 8        \n"
		   "             400 |" NOBAR " 0        \n\n");
	tagg_free(&t);

	tagg_init(&t, AGG_STDDEV, 1, 0);
	tagg_add(&t, NULL, 10);
	tagg_add(&t, NULL, 20);
	CHECK_FREE(printa("@i = %@d\n", &t, 1, NULL), "@i = 5\n");
	tagg_free(&t);

	/* printa/tst.def.r, tst.manyval.r */
	tagg_init(&t, AGG_COUNT, 1, 0);
	tagg_add(&t, NULL, 0);
	CHECK_FREE(printa(NULL, &t, 1, NULL), "\n                1\n");
	CHECK_FREE(printa("%@u %@u %@u\n", &t, 1, NULL), "1 1 1\n");
	tagg_free(&t);
}

TEST(agg_printa_keys)
{
	struct tagg t;

	/* printa/tst.dynwidth.r: the first key is the width */
	tagg_init(&t, AGG_SUM, 1, 2);
	tagg_add(&t, (struct fmt_val[]){ ikey(10, 4, true),
					 ikey(100, 4, true) }, 1);
	tagg_add(&t, (struct fmt_val[]){ ikey(-10, 4, true),
					 ikey(200, 4, true) }, 2);
	CHECK_FREE(printa("-->%-*d<--\n", &t, 1, NULL),
		   "-->100       <--\n-->200       <--\n");
	CHECK_FREE(printa("-->%*d<--\n", &t, 1, NULL),
		   "-->       100<--\n-->200       <--\n");
	tagg_free(&t);

	/* aggs/tst.order.r: equal values sort by key */
	tagg_init(&t, AGG_SUM, 1, 1);
	static const char *const cities[] = { "Ghent", "Berlin", "London",
					      "Calgary" };
	for (int i = 0; i < 4; i++)
		tagg_add(&t, (struct fmt_val[]){ skey(cities[i]) }, 1);
	CHECK_FREE(printa("%s\n", &t, 1, NULL),
		   "Berlin\nCalgary\nGhent\nLondon\n");
	tagg_free(&t);
}

TEST(agg_sort_options)
{
	struct tagg t[2];
	struct agg_sort_opts o = { .sortkey = true, .sortrev = true,
				   .sortkeypos = 1 };
	static const char *const who[] = { "cat", "dog", "mouse" };

	/* aggs/tst.signedkeyspos.r, @i8 and @i16 (partly) */
	tagg_init(&t[0], AGG_SUM, 1, 2);
	tagg_init(&t[1], AGG_SUM, 2, 2);
	for (int k = -1; k <= 1; k++) {
		for (int w = 0; w < 3; w++) {
			tagg_add(&t[0], (struct fmt_val[]){ skey(who[w]),
				 ikey(k, 1, true) }, k);
		}
		tagg_add(&t[1], (struct fmt_val[]){ skey("dog"),
			 ikey(k, 2, true) }, k * 11);
	}
	CHECK_FREE(print_all(t, 2, &o),
		   "  dog                                                65535"
		   "              -11\n"
		   "  dog                                                    1"
		   "               11\n"
		   "  dog                                                    0"
		   "                0\n"
		   "  mouse                                              255"
		   "               -1\n"
		   "  dog                                                255"
		   "               -1\n"
		   "  cat                                                255"
		   "               -1\n"
		   "  mouse                                                1"
		   "                1\n"
		   "  dog                                                  1"
		   "                1\n"
		   "  cat                                                  1"
		   "                1\n"
		   "  mouse                                                0"
		   "                0\n"
		   "  dog                                                  0"
		   "                0\n"
		   "  cat                                                  0"
		   "                0\n");
	tagg_free(&t[0]);
	tagg_free(&t[1]);
}

TEST(agg_printa_joined)
{
	struct tagg t[3];

	/* multiaggs/tst.zero.r: the first two printa()s */
	tagg_init(&t[0], AGG_SUM, 1, 1);
	tagg_init(&t[1], AGG_SUM, 2, 1);
	tagg_init(&t[2], AGG_QUANTIZE, 3, 1);
	tagg_add(&t[0], (struct fmt_val[]){ ikey(123, 4, true) }, 123);
	tagg_add(&t[1], (struct fmt_val[]){ ikey(456, 4, true) }, 456);
	tagg_add(&t[0], (struct fmt_val[]){ ikey(789, 4, true) }, 789);
	tagg_add(&t[1], (struct fmt_val[]){ ikey(789, 4, true) }, 789);
	CHECK_FREE(printa("%10d %@10d %@10d\n", t, 2, NULL),
		   "       456          0        456\n"
		   "       123        123          0\n"
		   "       789        789        789\n");
	CHECK_FREE(printa("%10d %@10d %@10d %@10d\n", t, 3, NULL),
		   "       456          0        456 \n" QHDR
		   "              -1 |" NOBAR " 0        \n"
		   "               0 |" NOBAR " 0        \n"
		   "               1 |" NOBAR " 0        \n\n"
		   "       123        123          0 \n" QHDR
		   "              -1 |" NOBAR " 0        \n"
		   "               0 |" NOBAR " 0        \n"
		   "               1 |" NOBAR " 0        \n\n"
		   "       789        789        789 \n" QHDR
		   "              -1 |" NOBAR " 0        \n"
		   "               0 |" NOBAR " 0        \n"
		   "               1 |" NOBAR " 0        \n\n");
	/* The default format: key columns, then a value per aggregation. */
	CHECK_FREE(printa(NULL, t, 2, NULL),
		   "\n      456                0              456\n"
		   "      123              123                0\n"
		   "      789              789              789\n");
	for (int i = 0; i < 3; i++)
		tagg_free(&t[i]);
}

TEST(agg_normalize)
{
	struct tagg t;

	tagg_init(&t, AGG_SUM, 1, 0);
	tagg_add(&t, NULL, 4500);
	t.desc.normal = 100;
	CHECK_FREE(print_all(&t, 1, NULL), "               45\n");
	CHECK_FREE(printa("%@d\n", &t, 1, NULL), "45\n");
	tagg_free(&t);
}

/* aggs/tst.llquantize_basic.r: @basicA (steps < factor), @basicC (ghosts) */
static char *llq_basic(int steps)
{
	static const int vals[] = { -20, -16, -12, -8, -6, -5, -4, -3, -2, -1,
				    0, 1, 2, 3, 4, 5, 6, 8, 12, 16, 20 };
	struct agg_desc d = { "basic", 1, AGG_LLQUANTIZE, 0, { 4, 0, 1, steps } };
	int64_t *q = calloc(agg_nwords(&d), sizeof(int64_t));
	struct agg_row row = { NULL, q }, *rows[] = { &row };
	struct cap c;

	for (size_t i = 0; i < sizeof(vals) / sizeof(vals[0]); i++)
		q[agg_llquantize_bucket(vals[i], 4, 0, 1, steps)] += 100 + vals[i];
	agg_print_default(cap_open(&c), &d, rows, 1, NULL);
	free(q);
	return cap_str(&c);
}

TEST(agg_llquantize_default)
{
	CHECK_FREE(llq_basic(2), "\n" QHDR
		   "          <= -16 |@@@                                      164      \n"
		   "              -8 |@@@                                      180      \n"
		   "              -4 |@@@@@                                    285      \n"
		   "              -2 |@@@@                                     195      \n"
		   "              -1 |@@                                       99       \n"
		   "               0 |@@                                       100      \n"
		   "               1 |@@                                       101      \n"
		   "               2 |@@@@                                     205      \n"
		   "               4 |@@@@@@                                   315      \n"
		   "               8 |@@@@                                     220      \n"
		   "           >= 16 |@@@@                                     236      \n"
		   "\n");
	CHECK_FREE(llq_basic(8), "\n" QHDR
		   "          <= -16 |@@@                                      164      \n"
		   "             -14 |                                         0        \n"
		   "             -12 |@@                                       88       \n"
		   "             -10 |                                         0        \n"
		   "              -8 |@@                                       92       \n"
		   "              -6 |@@                                       94       \n"
		   "              -4 |@@@@                                     191      \n"
		   "              -3 |@@                                       97       \n"
		   "              -2 |@@                                       98       \n"
		   "              -1 |@@                                       99       \n"
		   "               0 |@@                                       100      \n"
		   "               1 |@@                                       101      \n"
		   "               2 |@@                                       102      \n"
		   "               3 |@@                                       103      \n"
		   "               4 |@@@@                                     209      \n"
		   "               6 |@@                                       106      \n"
		   "               8 |@@                                       108      \n"
		   "              10 |                                         0        \n"
		   "              12 |@@                                       112      \n"
		   "              14 |                                         0        \n"
		   "           >= 16 |@@@@                                     236      \n"
		   "\n");
}
