#include "test.h"

#include "spec/spec.h"
#include "rt/specbuf.h"

struct replayed {
	char seen[64];
	int n;
};

static void replay(void *ctx, int cpu, const void *rec, uint32_t size)
{
	struct replayed *r = ctx;

	if (r->n < (int)sizeof(r->seen) - 1)
		r->seen[r->n++] = *(const char *)rec;
}

TEST(specbuf_commit_replays_in_order_discard_drops)
{
	struct specbufs s = { 0 };
	struct replayed r = { .n = 0 };

	CHECK(specbuf_add(&s, SPEC_TAG(1, 1), 0, "a", 1, 100) == SB_HELD);
	CHECK(specbuf_add(&s, SPEC_TAG(2, 1), 1, "x", 1, 100) == SB_HELD);
	CHECK(specbuf_add(&s, SPEC_TAG(1, 1), 1, "b", 1, 100) == SB_HELD);
	specbuf_end(&s, SPEC_TAG(2, 1), false, replay, &r);
	specbuf_end(&s, SPEC_TAG(1, 1), true, replay, &r);
	CHECK_STR(r.seen, "ab");
	CHECK(s.drops == 0);
	specbuf_fini(&s);
}

/* Another CPU's buffer read after the commit: its records are late. */
TEST(specbuf_late_records_follow_the_end)
{
	struct specbufs s = { 0 };
	struct replayed r = { .n = 0 };

	specbuf_end(&s, SPEC_TAG(1, 7), true, replay, &r);
	specbuf_end(&s, SPEC_TAG(1, 8), false, replay, &r);
	CHECK(specbuf_add(&s, SPEC_TAG(1, 7), 1, "a", 1, 100) == SB_PRINT);
	CHECK(specbuf_add(&s, SPEC_TAG(1, 8), 1, "b", 1, 100) == SB_DROPPED);
	CHECK(s.drops == 0);	/* discarded on purpose: not a loss */
	specbuf_tick(&s);
	specbuf_tick(&s);
	CHECK(s.n == 0);	/* ended tags are forgotten after two polls */
	specbuf_fini(&s);
}

TEST(specbuf_specsize_and_lost_ends_are_drops)
{
	struct specbufs s = { 0 };
	struct replayed r = { .n = 0 };
	char rec[40] = "a";

	CHECK(specbuf_add(&s, SPEC_TAG(1, 1), 0, rec, 40, 64) == SB_HELD);
	CHECK(specbuf_add(&s, SPEC_TAG(1, 1), 0, rec, 40, 64) == SB_DROPPED);
	CHECK(s.drops == 1);
	/* generation 2 of ID 1 ended: generation 1's end will not come */
	specbuf_end(&s, SPEC_TAG(1, 2), true, replay, &r);
	specbuf_tick(&s);
	specbuf_tick(&s);
	CHECK(s.drops == 2);
	CHECK(s.n == 0);
	CHECK(r.n == 0);
	specbuf_fini(&s);
}
