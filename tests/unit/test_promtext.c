/*
 * test_promtext.c -- the Prometheus text of aggregations: bucket bounds,
 * label names and escaping, offsets across resets, the size bound.
 */
#include "test.h"

#include <stdlib.h>

#include "rt/promtext.h"

static const struct dtype str_t = { T_STRING, 16, false, 0, "string" };
static const struct dtype int_t = { T_INT, 4, true, 0, "int" };

/* The text of one family with the given rows (one int64 word each, or a
 * whole vector for histograms). */
static char *render(struct prom_family *f, struct agg_row **rows, int n,
		    size_t max, int *left_out)
{
	struct agg_data d = { f->desc, rows, n };
	struct prom_text t = { .max = max };

	prom_render(&t, f, &d);
	if (left_out)
		*left_out = t.left_out;
	return t.buf;
}

TEST(promtext_counter_labels_escaped)
{
	struct agg_desc desc = { .name = "reads", .func = AGG_COUNT, .nkeys = 2 };
	struct spec_field keys[2] = { { 0, str_t, "execname" }, { 16, int_t, NULL } };
	struct fmt_val kv[2] = { { .type = str_t, .s = "a\"b\\c\nd\xff" },
				 { .type = int_t, .u = (uint64_t)-7 } };
	int64_t w = 42;
	struct agg_row row = { kv, &w }, *rows[] = { &row };
	struct prom_family f;
	char err[128];

	CHECK(prom_family_init(&f, &desc, keys, NULL, false, NULL, err,
			       sizeof(err)) == 0);
	char *text = render(&f, rows, 1, 0, NULL);

	CHECK_STR(text, "# HELP dscope_reads_total @reads, a counter aggregation traced by dscope\n"
			"# TYPE dscope_reads_total counter\n"
			"dscope_reads_total{execname=\"a\\\"b\\\\c\\nd\xef\xbf\xbd\",k1=\"-7\"} 42\n");
	free(text);
	prom_family_fini(&f);

	/* names given: the first renamed, the second kept */
	CHECK(prom_family_init(&f, &desc, keys, "who,", false, NULL, err,
			       sizeof(err)) == 0);
	CHECK_STR(f.labels[0], "who");
	CHECK_STR(f.labels[1], "k1");
	prom_family_fini(&f);
	CHECK(prom_family_init(&f, &desc, keys, "a,b,c", false, NULL, err,
			       sizeof(err)) < 0);
	CHECK_STR(err, "3 label names for @reads, which has 2 keys");
	CHECK(prom_family_init(&f, &desc, keys, "__x", false, NULL, err,
			       sizeof(err)) < 0);
}

TEST(promtext_label_names)
{
	struct agg_desc desc = { .name = "", .func = AGG_QUANTIZE, .nkeys = 4 };
	struct dtype stack_t = { T_STACK, 64, false, 0, "stack" };
	struct spec_field keys[4] = { { 0, int_t, "pid" }, { 8, int_t, "pid" },
				      { 16, int_t, "le" }, { 24, stack_t, "stack" } };
	struct prom_family f;
	char err[128];

	CHECK(prom_family_init(&f, &desc, keys, NULL, false, NULL, err,
			       sizeof(err)) == 0);
	CHECK_STR(f.name, "dscope");
	CHECK_STR(f.labels[0], "pid");
	CHECK_STR(f.labels[1], "k1");	/* taken */
	CHECK_STR(f.labels[2], "k2");	/* a histogram's le is its own */
	CHECK(f.labels[3] == NULL);	/* stacks only when asked */
	prom_family_fini(&f);
	CHECK(prom_family_init(&f, &desc, keys, NULL, true, NULL, err,
			       sizeof(err)) == 0);
	CHECK_STR(f.labels[3], "stack");
	prom_family_fini(&f);
}

/* Bucket i's le is the largest value bucket_of() puts in it. */
TEST(promtext_quantize_bounds)
{
	struct agg_desc desc = { .name = "lat", .func = AGG_QUANTIZE };
	struct prom_family f;
	char err[128];

	CHECK(prom_family_init(&f, &desc, NULL, NULL, false, NULL, err,
			       sizeof(err)) == 0);
	CHECK(f.le[AGG_QUANTIZE_ZERO] == 0);
	CHECK(f.le[AGG_QUANTIZE_ZERO - 1] == -1);
	CHECK(f.le[AGG_QUANTIZE_ZERO - 2] == -2);	/* [-3, -2] */
	CHECK(f.le[AGG_QUANTIZE_ZERO + 1] == 1);
	CHECK(f.le[agg_quantize_bucket(512)] == 1023);
	CHECK(f.le[AGG_QUANTIZE_NBUCKETS - 1] == INT64_MAX);
	CHECK(f.le[0] == -(INT64_C(1) << 62));

	int64_t q[AGG_QUANTIZE_NBUCKETS] = { 0 };
	struct agg_row row = { NULL, q }, *rows[] = { &row };

	q[agg_quantize_bucket(600)] = 3;
	q[agg_quantize_bucket(5000)] = 1;
	char *text = render(&f, rows, 1, 0, NULL);

	CHECK_STR(strstr(text, "dscope_lat_bucket"),
		  "dscope_lat_bucket{le=\"511\"} 0\n"
		  "dscope_lat_bucket{le=\"1023\"} 3\n"
		  "dscope_lat_bucket{le=\"2047\"} 3\n"
		  "dscope_lat_bucket{le=\"4095\"} 3\n"
		  "dscope_lat_bucket{le=\"8191\"} 4\n"
		  "dscope_lat_bucket{le=\"+Inf\"} 4\n"
		  "dscope_lat_count 4\n");
	free(text);
	prom_family_fini(&f);
}

/* llquantize(v, 10, 0, 1, 20): the low magnitude has buckets no value
 * reaches; what is left rises strictly. */
TEST(promtext_llquantize_bounds)
{
	struct agg_desc desc = { .name = "ll", .func = AGG_LLQUANTIZE,
				 .params = { 10, 0, 1, 20 } };
	struct prom_family f;
	char err[128];
	int64_t prev = INT64_MIN;
	bool rising = true;
	int ghosts = 0;

	CHECK(prom_family_init(&f, &desc, NULL, NULL, false, NULL, err,
			       sizeof(err)) == 0);
	for (int i = 0; i < f.nbuckets; i++) {
		if (f.ghost[i]) {
			ghosts++;
			continue;
		}
		rising &= i == 0 || f.le[i] > prev;
		prev = f.le[i];
		CHECK(agg_llquantize_bucket(f.le[i], 10, 0, 1, 20) == i);
	}
	CHECK(rising);
	CHECK(ghosts > 0);
	CHECK(f.le[f.nbuckets - 1] == INT64_MAX);
	prom_family_fini(&f);
}

/* clear() between two snapshots: the counter keeps what it had. */
TEST(promtext_offsets)
{
	struct agg_desc desc = { .name = "c", .func = AGG_COUNT, .nkeys = 1 };
	struct spec_field keys[1] = { { 0, str_t, "execname" } };
	struct fmt_val a = { .type = str_t, .s = "a" }, b = { .type = str_t, .s = "b" };
	int64_t wa = 10, wb = 5, za = 0;
	struct agg_row ra = { &a, &wa }, rb = { &b, &wb }, rz = { &a, &za };
	struct agg_row *before[] = { &ra, &rb }, *after[] = { &rz };
	struct agg_data db = { &desc, before, 2 }, da = { &desc, after, 1 };
	struct prom_family f;
	char err[128];

	CHECK(prom_family_init(&f, &desc, keys, NULL, false, NULL, err,
			       sizeof(err)) == 0);
	/* a cleared (10 -> 0), b truncated away (5 -> gone) */
	prom_note_reset(&f, &db, &da);
	za = 2;
	char *text = render(&f, after, 1, 0, NULL);

	CHECK_STR(strstr(text, "dscope_c_total{"),
		  "dscope_c_total{execname=\"a\"} 12\n"
		  "dscope_c_total{execname=\"b\"} 5\n");
	free(text);
	/* bounded: whole rows only, and counted */
	int left = 0;

	text = render(&f, after, 1, 140, &left);
	CHECK(strstr(text, "execname=\"a\"} 12\n") != NULL);
	CHECK(strstr(text, "execname=\"b\"") == NULL);
	CHECK(left == 1);
	free(text);
	prom_family_fini(&f);
}
