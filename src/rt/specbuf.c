/*
 * specbuf.c -- speculative records held until commit or discard.  See
 * specbuf.h.
 *
 * Few speculations are alive at once (at most nspec, plus ended ones
 * remembered for two polls), so a flat array searched linearly will do.
 *
 * No "busy" speculations.  DTrace counts a failed speculation as busy
 * ("N failed speculations (available buffer(s) still busy)") when
 * speculation() finds no free buffer but some are still being committed
 * or discarded: its per-CPU speculative buffers are drained by a cleaner
 * after commit(), and an ID is not free until they are.  Here the kernel
 * holds no speculative data: commit() and discard() free the ID at once
 * (spec.h, MAP_SPEC), and the records held here are keyed by ID *and*
 * generation, so a reused ID never waits for its previous generation's
 * records to be printed or dropped.  An ID is either active or free;
 * speculation() failing is always "no speculative buffer available", and
 * that is the only failure counted.
 */
#include "rt/specbuf.h"

#include <stdlib.h>
#include <string.h>

#define TAG_ID(t) ((uint32_t)(t))
#define TAG_GEN(t) ((uint32_t)((t) >> 32))

static struct specbuf *find(struct specbufs *s, uint64_t tag)
{
	for (int i = 0; i < s->n; i++)
		if (s->v[i].tag == tag)
			return &s->v[i];
	return NULL;
}

static struct specbuf *find_or_add(struct specbufs *s, uint64_t tag)
{
	struct specbuf *b = find(s, tag);

	if (b)
		return b;
	if (s->n == s->cap) {
		int cap = s->cap ? 2 * s->cap : 8;
		struct specbuf *v = realloc(s->v, sizeof(*v) * (size_t)cap);

		if (!v)
			return NULL;
		s->v = v;
		s->cap = cap;
	}
	b = &s->v[s->n++];
	memset(b, 0, sizeof(*b));
	b->tag = tag;
	b->poll = s->polls;
	return b;
}

static void free_recs(struct specbuf_rec **recs, int n)
{
	for (int i = 0; i < n; i++)
		free(recs[i]);
	free(recs);
}

enum specbuf_fate specbuf_add(struct specbufs *s, uint64_t tag, int cpu,
			      const void *rec, uint32_t size, uint64_t specsize)
{
	struct specbuf *b = find_or_add(s, tag);
	struct specbuf_rec *r;

	if (b && b->state == SB_COMMITTED)
		return SB_PRINT;
	if (b && b->state == SB_DISCARDED)
		return SB_DROPPED;
	if (!b || b->bytes + size > specsize)
		goto drop;
	if (b->nrecs == b->cap) {
		int cap = b->cap ? 2 * b->cap : 8;
		struct specbuf_rec **v = realloc(b->recs, sizeof(*v) * (size_t)cap);

		if (!v)
			goto drop;
		b->recs = v;
		b->cap = cap;
	}
	r = malloc(sizeof(*r) + size);
	if (!r)
		goto drop;
	r->cpu = cpu;
	r->size = size;
	memcpy(r->data, rec, size);
	b->recs[b->nrecs++] = r;
	b->bytes += size;
	return SB_HELD;
drop:
	s->drops++;
	return SB_DROPPED;
}

void specbuf_end(struct specbufs *s, uint64_t tag, bool commit,
		 specbuf_replay_f *replay, void *ctx)
{
	struct specbuf *b = find_or_add(s, tag);
	struct specbuf_rec **recs;
	int n;

	if (!b || b->state != SB_PENDING)
		return;
	/* the buffer is ended before replaying: a replayed record may end
	 * another speculation, which may move s->v */
	recs = b->recs;
	n = b->nrecs;
	b->state = commit ? SB_COMMITTED : SB_DISCARDED;
	b->recs = NULL;
	b->nrecs = b->cap = 0;
	b->bytes = 0;
	b->poll = s->polls;
	for (int i = 0; commit && i < n; i++)
		replay(ctx, recs[i]->cpu, recs[i]->data, recs[i]->size);
	free_recs(recs, n);
}

/* Has an ID reuse later than b ended two polls ago?  Then b's own end was
 * lost (a drop, or a fault after commit()) and will not come. */
static bool superseded(const struct specbufs *s, const struct specbuf *b)
{
	for (int i = 0; i < s->n; i++) {
		const struct specbuf *o = &s->v[i];

		if (o->state != SB_PENDING && TAG_ID(o->tag) == TAG_ID(b->tag) &&
		    TAG_GEN(o->tag) > TAG_GEN(b->tag) && o->poll + 2 <= s->polls)
			return true;
	}
	return false;
}

void specbuf_tick(struct specbufs *s)
{
	int n = 0;

	s->polls++;
	for (int i = 0; i < s->n; i++) {
		struct specbuf *b = &s->v[i];

		if (b->state == SB_PENDING && superseded(s, b)) {
			s->drops += (uint64_t)b->nrecs;
			free_recs(b->recs, b->nrecs);
			b->recs = NULL;
			b->nrecs = 0;
			b->state = SB_DISCARDED;
			b->poll = 0;
		}
	}
	for (int i = 0; i < s->n; i++) {
		struct specbuf *b = &s->v[i];

		if (b->state != SB_PENDING && b->poll + 2 <= s->polls)
			continue;
		s->v[n++] = *b;
	}
	s->n = n;
}

void specbuf_fini(struct specbufs *s)
{
	for (int i = 0; i < s->n; i++)
		free_recs(s->v[i].recs, s->v[i].nrecs);
	free(s->v);
	memset(s, 0, sizeof(*s));
}
