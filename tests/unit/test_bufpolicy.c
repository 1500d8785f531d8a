#include "test.h"

#include "rt/bufpolicy.h"

/* What bufpolicy_drain handed out: "cpu:first-byte" pairs, in order. */
struct printed {
	char seen[128];
	size_t n;
};

static void print(void *ctx, int cpu, const void *rec, uint32_t size)
{
	struct printed *p = ctx;

	if (p->n + 3 < sizeof(p->seen)) {
		p->seen[p->n++] = (char)('0' + cpu);
		p->seen[p->n++] = *(const char *)rec;
		p->seen[p->n++] = ' ';
	}
}

/* A 20-byte record costs 32 bytes: 8 of perf header, 4 of size, padded. */
TEST(bufpolicy_cost_is_the_perf_sample)
{
	CHECK(bufpolicy_cost(20) == 32);
	CHECK(bufpolicy_cost(16) == 32);
	CHECK(bufpolicy_cost(24) == 40);
}

/* ring: the newest records, within bufsize, per CPU. */
TEST(bufpolicy_ring_keeps_the_newest)
{
	struct bufpolicy_store s;
	struct printed p = { .n = 0 };
	char rec[20] = "a";

	CHECK(bufpolicy_init(&s, BUFPOLICY_RING, 100, 0, 2) == 0);
	for (char c = 'a'; c <= 'f'; c++) {	/* 6 x 32 bytes into 100 */
		rec[0] = c;
		CHECK(bufpolicy_add(&s, 1, rec, sizeof(rec), 0));
	}
	rec[0] = 'z';
	CHECK(bufpolicy_add(&s, 0, rec, sizeof(rec), 0));
	CHECK(s.cpus[1].bytes == 96);
	bufpolicy_drain(&s, print, &p);
	p.seen[p.n] = '\0';
	CHECK_STR(p.seen, "0z 1d 1e 1f ");
	CHECK(s.cpus[1].head == NULL && s.cpus[1].bytes == 0);
	bufpolicy_fini(&s);
}

/* fill: the first records, within bufsize less END's room; then that CPU
 * is full, another is not, and END may use the room. */
TEST(bufpolicy_fill_keeps_the_first_and_room_for_end)
{
	struct bufpolicy_store s;
	struct printed p = { .n = 0 };
	char rec[20] = "a";

	CHECK(bufpolicy_init(&s, BUFPOLICY_FILL, 128, 32, 2) == 0);
	for (char c = 'a'; c <= 'e'; c++) {	/* room for 3 of 32 bytes */
		rec[0] = c;
		CHECK(bufpolicy_add(&s, 0, rec, sizeof(rec), 0) == (c <= 'c'));
	}
	CHECK(s.filled && s.cpus[0].full && !s.cpus[1].full);
	rec[0] = 'x';
	CHECK(bufpolicy_add(&s, 1, rec, sizeof(rec), 0));
	s.ending = true;
	rec[0] = 'E';
	CHECK(bufpolicy_add(&s, 0, rec, sizeof(rec), 0));	/* END's room */
	CHECK(!bufpolicy_add(&s, 0, rec, sizeof(rec), 0));	/* and no more */
	bufpolicy_drain(&s, print, &p);		/* END's CPU last */
	p.seen[p.n] = '\0';
	CHECK_STR(p.seen, "1x 0a 0b 0c 0E ");
	bufpolicy_fini(&s);
}

/* ring with maxage: at the drain, timed records more than maxage older
 * than the newest of any CPU go (counted), the boundary stays, and
 * records without a timestamp stay whatever their neighbours' age. */
TEST(bufpolicy_ring_keeps_the_last_maxage)
{
	struct bufpolicy_store s;
	struct printed p = { .n = 0 };
	static const struct { int cpu; char c; uint64_t ts; } adds[] = {
		{ 0, 'a', 100 }, { 0, 'b', 0 }, { 0, 'c', 149 }, { 0, 'd', 150 },
		{ 1, 'e', 120 }, { 1, 'f', 180 }, { 0, 'g', 200 },
	};
	char rec[20] = "a";

	CHECK(bufpolicy_init(&s, BUFPOLICY_RING, 1000, 0, 2) == 0);
	s.maxage = 50;			/* newest 200: keep 150 and after */
	for (size_t i = 0; i < sizeof(adds) / sizeof(adds[0]); i++) {
		rec[0] = adds[i].c;
		CHECK(bufpolicy_add(&s, adds[i].cpu, rec, sizeof(rec), adds[i].ts));
	}
	bufpolicy_drain(&s, print, &p);
	p.seen[p.n] = '\0';
	CHECK_STR(p.seen, "0b 0d 0g 1f ");
	CHECK(s.aged == 3);
	bufpolicy_fini(&s);
}
