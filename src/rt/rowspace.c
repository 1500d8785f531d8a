/*
 * rowspace.c -- the unwind rows map's space.  See rowspace.h.
 *
 * Invariants: free holds disjoint runs below top, sorted by first, no two
 * adjacent and none ending at top (recycle merges them); held runs are
 * disjoint from free and from each other, below top.
 */
#include "rt/rowspace.h"

#include <errno.h>
#include <stdlib.h>

static int by_first(const void *a, const void *b)
{
	const struct rows_run *x = a, *y = b;

	return x->first < y->first ? -1 : x->first > y->first;
}

bool rowspace_take(struct rowspace *s, uint32_t count, uint32_t *first)
{
	for (size_t i = 0; i < s->nfree; i++) {
		struct rows_run *r = &s->free[i];

		if (r->count < count)
			continue;
		*first = r->first;
		r->first += count;
		r->count -= count;
		if (r->count == 0) {
			s->nfree--;
			for (size_t k = i; k < s->nfree; k++)
				s->free[k] = s->free[k + 1];
		}
		return true;
	}
	if (count > s->budget - s->top)
		return false;
	*first = s->top;
	s->top += count;
	return true;
}

int rowspace_give(struct rowspace *s, uint32_t first, uint32_t count)
{
	if (s->nheld == s->held_cap) {
		size_t cap = s->held_cap ? 2 * s->held_cap : 16;
		struct rows_run *v = realloc(s->held, cap * sizeof(*v));

		if (!v)
			return -ENOMEM;
		s->held = v;
		s->held_cap = cap;
	}
	s->held[s->nheld++] = (struct rows_run){ first, count };
	return 0;
}

void rowspace_recycle(struct rowspace *s)
{
	size_t k = 0;

	if (!s->nheld)
		return;
	if (s->nfree + s->nheld > s->free_cap) {
		size_t cap = 2 * (s->nfree + s->nheld);
		struct rows_run *v = realloc(s->free, cap * sizeof(*v));

		if (!v)
			return;		/* held a sweep longer: tried again */
		s->free = v;
		s->free_cap = cap;
	}
	for (size_t i = 0; i < s->nheld; i++)
		s->free[s->nfree++] = s->held[i];
	s->nheld = 0;
	qsort(s->free, s->nfree, sizeof(*s->free), by_first);
	for (size_t i = 0; i < s->nfree; i++) {
		if (k && s->free[k - 1].first + s->free[k - 1].count == s->free[i].first)
			s->free[k - 1].count += s->free[i].count;
		else
			s->free[k++] = s->free[i];
	}
	s->nfree = k;
	if (k && s->free[k - 1].first + s->free[k - 1].count == s->top) {
		s->top = s->free[k - 1].first;
		s->nfree--;
	}
}

uint32_t rowspace_in_use(const struct rowspace *s)
{
	uint32_t n = s->top;

	for (size_t i = 0; i < s->nfree; i++)
		n -= s->free[i].count;
	for (size_t i = 0; i < s->nheld; i++)
		n -= s->held[i].count;
	return n;
}

void rowspace_free(struct rowspace *s)
{
	free(s->free);
	free(s->held);
	s->free = s->held = NULL;
	s->nfree = s->nheld = s->free_cap = s->held_cap = 0;
}
