/*
 * bufpolicy.c -- fill and ring on the consumer's per-CPU store.  See
 * bufpolicy.h.
 *
 * Invariant: a CPU's bytes are the sum of its records' costs and never
 * exceed bufsize (nor bufsize - end_room under fill before END runs).
 * Records are a singly linked list per CPU: ring drops from the head,
 * everything appends at the tail.
 */
#include "rt/bufpolicy.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>


/* The records the clauses write; an error record that does not fit is
 * a drop, as any record that finds no room. */
uint32_t bufpolicy_largest(const struct spec *sp)
{
	uint32_t max = REC_HDR;

	for (int i = 0; i < sp->nepids; i++)
		if (sp->epids[i].size > max)
			max = sp->epids[i].size;
	return bufpolicy_cost(max);
}

uint64_t bufpolicy_end_room(const struct spec *sp)
{
	uint64_t room = 0;

	for (int i = 0; i < sp->nepids; i++)
		if (sp->epids[i].end)
			room += bufpolicy_cost(sp->epids[i].size);
	return room;
}

int bufpolicy_init(struct bufpolicy_store *s, enum bufpolicy policy,
		   uint64_t bufsize, uint64_t end_room, int ncpus)
{
	memset(s, 0, sizeof(*s));
	s->policy = policy;
	s->bufsize = bufsize;
	s->end_room = end_room;
	s->ncpus = ncpus;
	s->end_cpu = -1;
	s->cpus = calloc((size_t)ncpus, sizeof(*s->cpus));
	return s->cpus ? 0 : -ENOMEM;
}

static void drop_oldest(struct bufpolicy_cpu *c)
{
	struct bufpolicy_rec *r = c->head;

	c->head = r->next;
	if (!c->head)
		c->tail = NULL;
	c->bytes -= r->cost;
	free(r);
}

/* fill: does a record of cost fit on c?  Once one does not, none will. */
static bool fill_takes(struct bufpolicy_store *s, struct bufpolicy_cpu *c,
		       uint32_t cost)
{
	uint64_t room = s->ending ? s->bufsize : s->bufsize - s->end_room;

	if (c->full && !s->ending)
		return false;
	if (c->bytes + cost <= room)
		return true;
	c->full = true;
	s->filled = true;
	return false;
}

bool bufpolicy_add(struct bufpolicy_store *s, int cpu, const void *rec,
		   uint32_t size, uint64_t ts)
{
	uint32_t cost = bufpolicy_cost(size);
	struct bufpolicy_cpu *c;
	struct bufpolicy_rec *r;

	if (cpu < 0 || cpu >= s->ncpus)
		return false;
	c = &s->cpus[cpu];
	if (s->ending && s->end_cpu < 0)
		s->end_cpu = cpu;
	if (s->policy == BUFPOLICY_FILL && !fill_takes(s, c, cost))
		return false;
	if (cost > s->bufsize) {	/* no buffer of this size holds it */
		c->drops++;
		return false;
	}
	while (c->head && c->bytes + cost > s->bufsize) {	/* ring */
		drop_oldest(c);
		c->overwritten++;
	}
	if (!(r = malloc(sizeof(*r) + size))) {
		c->drops++;
		return false;
	}
	r->next = NULL;
	r->size = size;
	r->cost = cost;
	r->ts = ts;
	memcpy(r->data, rec, size);
	if (c->tail)
		c->tail->next = r;
	else
		c->head = r;
	c->tail = r;
	c->bytes += cost;
	return true;
}

/* CPU cpu's records to print, but timed ones before oldest */
static void drain_cpu(struct bufpolicy_store *s, int cpu, uint64_t oldest,
		      bufpolicy_print_f *print, void *ctx)
{
	struct bufpolicy_cpu *c = &s->cpus[cpu];

	/* each record unlinked before printing, so the store stays whole
	 * whatever printing does */
	while (c->head) {
		struct bufpolicy_rec *r = c->head;

		c->head = r->next;
		if (!c->head)
			c->tail = NULL;
		c->bytes -= r->cost;
		if (r->ts && r->ts < oldest)
			s->aged++;
		else
			print(ctx, cpu, r->data, r->size);
		free(r);
	}
}

/* The oldest timestamp maxage keeps: maxage before the newest timed
 * record of any CPU (0: keep all). */
static uint64_t window_start(const struct bufpolicy_store *s)
{
	uint64_t newest = 0;

	if (!s->maxage)
		return 0;
	for (int cpu = 0; cpu < s->ncpus; cpu++)
		for (const struct bufpolicy_rec *r = s->cpus[cpu].head; r; r = r->next)
			if (r->ts > newest)
				newest = r->ts;
	return newest > s->maxage ? newest - s->maxage : 0;
}

void bufpolicy_drain(struct bufpolicy_store *s, bufpolicy_print_f *print,
		     void *ctx)
{
	uint64_t oldest = window_start(s);

	for (int cpu = 0; cpu < s->ncpus; cpu++)
		if (cpu != s->end_cpu)
			drain_cpu(s, cpu, oldest, print, ctx);
	if (s->end_cpu >= 0)
		drain_cpu(s, s->end_cpu, oldest, print, ctx);
}

uint64_t bufpolicy_overwritten(const struct bufpolicy_store *s)
{
	uint64_t n = 0;

	for (int cpu = 0; s->cpus && cpu < s->ncpus; cpu++)
		n += s->cpus[cpu].overwritten;
	return n;
}

void bufpolicy_fini(struct bufpolicy_store *s)
{
	for (int cpu = 0; s->cpus && cpu < s->ncpus; cpu++)
		while (s->cpus[cpu].head)
			drop_oldest(&s->cpus[cpu]);
	free(s->cpus);
	memset(s, 0, sizeof(*s));
}
