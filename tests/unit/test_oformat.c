/*
 * test_oformat.c -- the pieces other output formats are built of: bucket
 * bounds (every value of a bucket lands in it, the next value in the
 * next bucket), the JSON emitter's lines, strings included, and the
 * flame graph's tree.
 */
#include "test.h"

#include <stdlib.h>

#include "prov/catalog.h"
#include "rt/oformat.h"
#include "rt/flamegraph.h"

static int bucket(const struct agg_desc *d, int64_t v)
{
	if (d->func == AGG_QUANTIZE)
		return agg_quantize_bucket(v);
	if (d->func == AGG_LQUANTIZE)
		return agg_lquantize_bucket(v, d->params[0],
			agg_lquantize_levels(d->params[0], d->params[1],
					     d->params[2]), d->params[2]);
	return agg_llquantize_bucket(v, (int)d->params[0], (int)d->params[1],
				     (int)d->params[2], (int)d->params[3]);
}

/* Bounds agree with the bucket function at both ends and just past. */
static void check_bounds(const struct agg_desc *d)
{
	int64_t lo, hi, prev_hi = 0;
	bool any = false;

	for (uint32_t b = 0; b < agg_nwords(d); b++) {
		if (!agg_bucket_bounds(d, (int)b, &lo, &hi))
			continue;
		CHECK(bucket(d, lo) == (int)b && bucket(d, hi) == (int)b);
		CHECK(lo <= hi);
		CHECK(!any ? lo == INT64_MIN : lo == prev_hi + 1);
		CHECK(hi == INT64_MAX || bucket(d, hi + 1) > (int)b);
		prev_hi = hi;
		any = true;
	}
	CHECK(any && prev_hi == INT64_MAX);
}

TEST(emit_bucket_bounds)
{
	struct agg_desc q = { .func = AGG_QUANTIZE };
	struct agg_desc lq = { .func = AGG_LQUANTIZE, .params = { 0, 100000, 10000 } };
	struct agg_desc llq = { .func = AGG_LLQUANTIZE, .params = { 10, 0, 6, 20 } };
	struct agg_desc ll2 = { .func = AGG_LLQUANTIZE, .params = { 4, 0, 1, 8 } };
	int64_t lo, hi;

	check_bounds(&q);
	check_bounds(&lq);
	check_bounds(&llq);
	check_bounds(&ll2);
	CHECK(agg_bucket_bounds(&q, agg_quantize_bucket(5), &lo, &hi) &&
	      lo == 4 && hi == 7);
	CHECK(agg_bucket_bounds(&q, agg_quantize_bucket(-5), &lo, &hi) &&
	      lo == -7 && hi == -4);
	CHECK(agg_bucket_bounds(&q, AGG_QUANTIZE_ZERO, &lo, &hi) &&
	      lo == 0 && hi == 0);
	CHECK(agg_bucket_bounds(&lq, 0, &lo, &hi) && lo == INT64_MIN && hi == -1);
	CHECK(agg_bucket_bounds(&lq, 8, &lo, &hi) && lo == 70000 && hi == 79999);
	CHECK(agg_bucket_bounds(&lq, 11, &lo, &hi) && lo == 100000 &&
	      hi == INT64_MAX);
	CHECK(agg_bucket_bounds(&llq, bucket(&llq, 1234), &lo, &hi) &&
	      lo == 1000 && hi == 1499);
}

/* The JSON lines of one firing's printf and trace, and an aggregation. */
TEST(emit_json_lines)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);
	struct emitter *em = emit_new(OFORMAT_JSON, &out, stderr, "dscope", NULL);
	struct probe p = { .id = 7, .prov = "syscall", .mod = "vmlinux",
			   .func = "chdir", .name = "entry" };
	struct spec_action pf = { .kind = ACT_PRINTF }, tr = { .kind = ACT_TRACE };
	static const char text[] = "q\"b\\s\n\t\x01 \xc3\xa9 \xff\xc3 \xed\xa0\x80!";
	struct fmt_val s = { .type = { T_STRING, 8 }, .s = "a\x80" "b" };
	struct fmt_val i = { .type = { T_INT, 4, true }, .u = 0xffffffff };
	struct agg_desc d = { .name = "n", .func = AGG_AVG, .nkeys = 1 };
	int64_t data[2] = { 4, 10 };
	struct agg_row row = { &i, data }, *rows[] = { &row };
	struct agg_data a = { &d, rows, 1 };
	struct emit_record *r;

	CHECK(em != NULL);
	r = em->ops->record_begin(em, 1, 7, &p);
	em->ops->action(em, r, &pf, NULL, text, sizeof(text) - 1);
	em->ops->action(em, r, &tr, &s, NULL, 0);
	em->ops->record_end(em, r);
	em->ops->aggs(em, NULL, &a, 1);
	em->ops->finish(em);
	em->ops->free(em);
	fclose(out);
	CHECK_STR(buf,
		  "{\"type\":\"header\",\"schema\":\"dscope\",\"version\":1}\n"
		  "{\"type\":\"probe\",\"cpu\":1,\"id\":7,\"provider\":\"syscall\","
		  "\"module\":\"vmlinux\",\"function\":\"chdir\",\"name\":\"entry\","
		  "\"output\":[{\"action\":\"printf\",\"text\":"
		  "\"q\\\"b\\\\s\\n\\t\\u0001 \xc3\xa9 \\udcff\\udcc3 "
		  "\\udced\\udca0\\udc80!\"},"
		  "{\"action\":\"trace\",\"value\":\"a\\udc80b\"}]}\n"
		  "{\"type\":\"aggregation\",\"name\":\"n\",\"function\":\"avg\","
		  "\"rows\":[{\"keys\":[-1],\"value\":2,\"count\":4,\"sum\":10}]}\n");
	free(buf);
}

/* Stacks merge by frame; widths are values; names are escaped. */
TEST(emit_flamegraph_tree)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);
	struct flamegraph *fg = fg_new();
	struct fg_frame small[] = { { "@", FG_AGG }, { "main", FG_USER },
				    { "alloc_small", FG_USER },
				    { "operator<&>", FG_USER } };
	struct fg_frame big[] = { { "@", FG_AGG }, { "main", FG_USER },
				  { "alloc_big", FG_USER },
				  { "do_syscall_64", FG_KERNEL } };

	fg_add(fg, small, 4, 300);
	fg_add(fg, big, 4, 7);
	fg_add(fg, big, 4, -5);	/* adds nothing */
	fg_write(fg, out, "T", "count");
	fg_free(fg);
	fclose(out);
	/* one aggregation: no "@" frame; all, main, then alloc_big first */
	CHECK(strstr(buf, "<title>@ (") == NULL);
	CHECK(strstr(buf, "data-s=\"0\" data-v=\"307\" data-d=\"0\"><title>all (count 307, 100.00%)"));
	CHECK(strstr(buf, "data-s=\"0\" data-v=\"307\" data-d=\"1\"><title>main (count 307"));
	CHECK(strstr(buf, "data-s=\"0\" data-v=\"7\" data-d=\"2\"><title>alloc_big (count 7, 2.28%)"));
	CHECK(strstr(buf, "data-s=\"7\" data-v=\"300\" data-d=\"2\"><title>alloc_small (count 300, 97.72%)"));
	CHECK(strstr(buf, "<title>operator&lt;&amp;&gt; (count 300"));
	CHECK(strstr(buf, "operator<&>") == NULL);
	free(buf);
}
