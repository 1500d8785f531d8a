/*
 * test_rowspace.c -- the unwind rows map's space (rt/rowspace.c): runs
 * given back are reused only after a recycle, first fit, merged with
 * their neighbours and with the unused top.
 */
#include "test.h"

#include "rt/rowspace.h"

TEST(rowspace_take_within_budget)
{
	struct rowspace s = { .budget = 100 };
	uint32_t a, b;

	CHECK(rowspace_take(&s, 60, &a) && a == 0);
	CHECK(!rowspace_take(&s, 41, &b));	/* 40 left */
	CHECK(rowspace_take(&s, 40, &b) && b == 60);
	CHECK(rowspace_in_use(&s) == 100);
	rowspace_free(&s);
}

/* Rows given back wait a recycle: a walk may still read them. */
TEST(rowspace_reuse_after_recycle)
{
	struct rowspace s = { .budget = 100 };
	uint32_t a, b, c;

	CHECK(rowspace_take(&s, 30, &a) && rowspace_take(&s, 30, &b) &&
	      rowspace_take(&s, 40, &c));
	CHECK(rowspace_give(&s, b, 30) == 0);
	CHECK(rowspace_in_use(&s) == 70);
	CHECK(!rowspace_take(&s, 10, &b));	/* held, not yet free */
	rowspace_recycle(&s);
	CHECK(rowspace_take(&s, 10, &b) && b == 30);	/* first fit */
	CHECK(rowspace_take(&s, 20, &b) && b == 40);
	CHECK(!rowspace_take(&s, 1, &b));
	rowspace_free(&s);
}

/* Neighbours merge, and a run reaching the top lowers it. */
TEST(rowspace_merges_runs)
{
	struct rowspace s = { .budget = 100 };
	uint32_t r[4], x;

	for (int i = 0; i < 4; i++)
		CHECK(rowspace_take(&s, 25, &r[i]) && r[i] == (uint32_t)(25 * i));
	CHECK(rowspace_give(&s, r[1], 25) == 0 && rowspace_give(&s, r[2], 25) == 0);
	rowspace_recycle(&s);
	CHECK(s.nfree == 1 && s.free[0].first == 25 && s.free[0].count == 50);
	CHECK(rowspace_take(&s, 50, &x) && x == 25);
	CHECK(rowspace_give(&s, r[3], 25) == 0);
	CHECK(rowspace_give(&s, 25, 50) == 0);
	rowspace_recycle(&s);
	CHECK(s.nfree == 0 && s.top == 25);	/* all but the first run */
	CHECK(rowspace_in_use(&s) == 25);
	CHECK(rowspace_take(&s, 75, &x) && x == 25);
	rowspace_free(&s);
}
