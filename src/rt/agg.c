/*
 * agg.c -- snapshot, merge, clear and truncate aggregations.  See agg.h.
 */
#define _GNU_SOURCE	/* qsort_r */
#include "rt/agg.h"

#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

int agg_state_init(struct agg_state *st, const struct spec *sp)
{
	memset(st, 0, sizeof(*st));
	st->sp = sp;
	st->ncpus = libbpf_num_possible_cpus();
	st->descs = calloc((size_t)sp->naggs + 1, sizeof(*st->descs));
	st->printed = calloc((size_t)sp->naggs + 1, sizeof(bool));
	if (!st->descs || !st->printed)
		return -ENOMEM;
	for (int i = 0; i < sp->naggs; i++) {
		const struct spec_agg *ag = &sp->aggs[i];
		struct agg_desc *d = &st->descs[i];

		d->name = ag->name;
		d->id = i;
		d->func = ag->func;
		d->nkeys = ag->nkeys;
		memcpy(d->params, ag->params, sizeof(d->params));
	}
	return 0;
}

void agg_state_fini(struct agg_state *st)
{
	free(st->descs);
	free(st->printed);
	free(st->stale);
	memset(st, 0, sizeof(*st));
}

static bool has_ids(const struct spec_agg *ag)
{
	for (int i = 0; i < ag->nkeys; i++)
		if (spec_key_by_id(&ag->keys[i].type))
			return true;
	return false;
}

/* key i's bytes in the consumer's key: up to the next key's */
static uint32_t key_width(const struct spec_agg *ag, int i)
{
	return (i + 1 < ag->nkeys ? ag->keys[i + 1].off : ag->key_size) -
	       ag->keys[i].off;
}

/*
 * The consumer's key from the kernel map's (spec.h's spec_agg): each key
 * from its koff to its off, a stack's words from the stacks map by its
 * id, in whichever lane has it.  An id no lane has (not expected: a
 * stack is stored before its id is used) reads as an empty stack.
 */
static unsigned char *expand_key(const struct agg_state *st,
				 const struct spec_agg *ag, struct arena *a,
				 unsigned char *kkey)
{
	if (!has_ids(ag))
		return kkey;	/* the same layout */
	const struct spec *sp = st->sp;
	const struct spec_map *sm = &sp->maps[sp->stacks_lanes[0]];
	unsigned char *key = arena_alloc(a, ag->key_size);
	unsigned char *words = arena_alloc(a, sm->value_size);

	for (int i = 0; i < ag->nkeys; i++) {
		const struct spec_field *f = &ag->keys[i];
		uint32_t n = key_width(ag, i);
		uint64_t id;

		if (!spec_key_by_id(&f->type)) {
			memcpy(key + f->off, kkey + f->koff, n);
			continue;
		}
		memcpy(&id, kkey + f->koff, 8);
		for (int l = 0; l < sp->nstacks_lanes; l++)
			if (bpf_map_lookup_elem(sp->maps[sp->stacks_lanes[l]].fd,
						&id, words) == 0) {
				memcpy(key + f->off, words,
				       n < sm->value_size ? n : sm->value_size);
				break;
			}
	}
	return key;
}

/* Key bytes -> typed values (strings point into the copied key). */
static struct fmt_val *decode_key(const struct spec_agg *ag, struct arena *a,
				  const unsigned char *key)
{
	struct fmt_val *kv = arena_alloc(a, sizeof(*kv) * (size_t)(ag->nkeys + 1));
	unsigned char *copy = arena_alloc(a, ag->key_size + 1);

	memcpy(copy, key, ag->key_size);
	for (int i = 0; i < ag->nkeys; i++) {
		const struct spec_field *f = &ag->keys[i];

		kv[i].type = f->type;
		if (f->type.kind == T_STRING) {
			kv[i].s = (const char *)copy + f->off;
			copy[f->off + f->type.size - 1] = '\0';
		} else if (f->type.kind == T_STACK) {
			kv[i].pcs = (const uint64_t *)(copy + f->off);
		} else {
			memcpy(&kv[i].u, copy + f->off, 8);
		}
	}
	return kv;
}

/* A module's canonical address: the first seen under its name. */
struct mod_seen {
	uint32_t pid;
	const char *name;
	uint64_t addr;
};

struct fold {
	const struct fmt_sym_ops *syms;
	struct arena *a;
	struct mod_seen *mods;
	int nmods, cap;
};

static uint64_t module_addr(struct fold *f, uint32_t pid, const char *mod,
			    uint64_t addr)
{
	for (int i = 0; i < f->nmods; i++)
		if (f->mods[i].pid == pid && strcmp(f->mods[i].name, mod) == 0)
			return f->mods[i].addr;
	*ARENA_PUSH(f->a, f->mods, f->nmods, f->cap) =
		(struct mod_seen){ pid, arena_strdup(f->a, mod), addr };
	return addr;
}

/* The address a symbol key stands for: its function's start, or its
 * module's canonical address; unknown addresses stay as they are. */
static uint64_t fold_addr(struct fold *f, enum dsym_kind kind, bool user,
			  uint32_t pid, uint64_t addr)
{
	const char *mod = NULL, *sym = NULL;
	uint64_t symaddr = 0;
	bool found = user ? f->syms->ulookup &&
			    f->syms->ulookup(f->syms->ctx, pid, addr, &mod, &sym,
					     &symaddr)
			  : f->syms->lookup &&
			    f->syms->lookup(f->syms->ctx, addr, &mod, &sym,
					    &symaddr);

	if (!found)
		return addr;
	if (kind == DSYM_MOD)
		return mod ? module_addr(f, pid, mod, addr) : addr;
	return sym ? symaddr : addr;
}

static bool folds(const struct spec_agg *ag)
{
	for (int i = 0; i < ag->nkeys; i++)
		if (ag->keys[i].type.sym == DSYM_FUNC ||
		    ag->keys[i].type.sym == DSYM_MOD)
			return true;
	return false;
}

/* Rewrite the symbol keys in key (a copy) to what they stand for. */
static void fold_key(struct fold *f, const struct spec_agg *ag,
		     unsigned char *key)
{
	for (int i = 0; i < ag->nkeys; i++) {
		const struct spec_field *k = &ag->keys[i];
		bool user = k->type.kind == T_STACK;	/* { pid, address } */
		uint64_t pid = 0, addr;

		if (k->type.sym != DSYM_FUNC && k->type.sym != DSYM_MOD)
			continue;
		if (user)
			memcpy(&pid, key + k->off, 8);
		memcpy(&addr, key + k->off + (user ? 8 : 0), 8);
		addr = fold_addr(f, k->type.sym, user, (uint32_t)pid, addr);
		memcpy(key + k->off + (user ? 8 : 0), &addr, 8);
	}
}

static int keycmp(const void *x, const void *y, void *size)
{
	return memcmp(*(unsigned char *const *)x, *(unsigned char *const *)y,
		      *(const uint32_t *)size);
}

/* Rows whose keys are equal (folded, or from two lanes) become one: sort
 * by key, merge runs. */
static void merge_equal_keys(const struct spec_agg *ag, struct agg_data *out,
			     unsigned char **keys, struct arena *a)
{
	int *order = arena_alloc(a, sizeof(int) * (size_t)(out->nrows + 1));
	unsigned char **sorted = arena_alloc(a, sizeof(*sorted) *
					     (size_t)(out->nrows + 1));
	struct agg_row **rows = arena_alloc(a, sizeof(*rows) *
					    (size_t)(out->nrows + 1));
	int n = 0;

	/* each key is followed by its row's index (see snapshot) */
	for (int i = 0; i < out->nrows; i++)
		sorted[i] = keys[i];
	qsort_r(sorted, (size_t)out->nrows, sizeof(*sorted), keycmp,
		(void *)&ag->key_size);
	for (int i = 0; i < out->nrows; i++)
		memcpy(&order[i], sorted[i] + ag->key_size, sizeof(int));
	for (int i = 0; i < out->nrows; i++) {
		struct agg_row *r = out->rows[order[i]];

		if (n > 0 && memcmp(sorted[i], sorted[i - 1], ag->key_size) == 0)
			agg_merge(ag->func, rows[n - 1]->data, r->data, ag->nwords);
		else
			rows[n++] = r;
	}
	out->rows = rows;
	out->nrows = n;
}

/* Append lane l's rows to out; with keys, each key (folded when fold)
 * followed by its row's index, for merge_equal_keys. */
static void snapshot_lane(struct agg_state *st, const struct spec_agg *ag,
			  int l, struct arena *a, struct agg_data *out,
			  struct fold *fold, unsigned char ***keys, int *cap,
			  int *kcap)
{
	int fd = st->sp->maps[ag->lanes[l]].fd;
	size_t vsz = (size_t)ag->nwords * 8;
	unsigned char *key = arena_alloc(a, ag->kkey_size), *next = arena_alloc(a, ag->kkey_size);
	int64_t *percpu = arena_alloc(a, vsz * (size_t)st->ncpus);
	int nkeys = out->nrows;
	void *prev = NULL;

	while (bpf_map_get_next_key(fd, prev, next) == 0) {
		memcpy(key, next, ag->kkey_size);
		prev = key;
		if (bpf_map_lookup_elem(fd, key, percpu) < 0)
			continue;	/* deleted under us */
		struct agg_row *row = arena_alloc(a, sizeof(*row));
		const unsigned char *kb = expand_key(st, ag, a, key);

		if (keys) {
			unsigned char *k = arena_alloc(a, ag->key_size + sizeof(int));

			memcpy(k, kb, ag->key_size);
			if (fold)
				fold_key(fold, ag, k);
			memcpy(k + ag->key_size, &out->nrows, sizeof(int));
			*ARENA_PUSH(a, *keys, nkeys, *kcap) = k;
			kb = k;
		}
		row->raw = key;
		row->keys = decode_key(ag, a, kb);
		row->data = arena_alloc(a, vsz);
		agg_init(out->desc, row->data);
		for (int c = 0; c < st->ncpus; c++)
			agg_merge(ag->func, row->data,
				  (int64_t *)((char *)percpu + vsz * (size_t)c),
				  ag->nwords);
		*ARENA_PUSH(a, out->rows, out->nrows, *cap) = row;
		key = arena_alloc(a, ag->kkey_size);
	}
}

static int snapshot(struct agg_state *st, int ai, struct arena *a,
		    struct agg_data *out, bool fold_syms)
{
	const struct spec_agg *ag = &st->sp->aggs[ai];
	struct fold f = { .syms = st->syms, .a = a };
	bool fold = fold_syms && st->syms && folds(ag);
	unsigned char **keys = NULL;
	int cap = 0, kcap = 0;

	memset(out, 0, sizeof(*out));
	out->desc = &st->descs[ai];
	for (int l = 0; l < ag->nlanes; l++)
		snapshot_lane(st, ag, l, a, out, fold ? &f : NULL,
			      fold || ag->nlanes > 1 ? &keys : NULL, &cap, &kcap);
	if (keys)
		merge_equal_keys(ag, out, keys, a);
	return 0;
}

int agg_snapshot(struct agg_state *st, int ai, struct arena *a,
		 struct agg_data *out)
{
	return snapshot(st, ai, a, out, true);
}

int agg_clear(struct agg_state *st, int ai)
{
	const struct spec_agg *ag = &st->sp->aggs[ai];
	size_t vsz = (size_t)ag->nwords * 8;

	int64_t *zero = calloc((size_t)st->ncpus, vsz);

	if (!zero)
		return -ENOMEM;
	for (int c = 0; c < st->ncpus; c++)
		agg_init(&st->descs[ai], (int64_t *)((char *)zero + vsz * (size_t)c));
	/* every key keeps its entry, back at the initial value */
	unsigned char *key = calloc(1, ag->kkey_size);

	for (int l = 0; key && l < ag->nlanes; l++) {
		int fd = st->sp->maps[ag->lanes[l]].fd;
		void *prev = NULL;

		while (bpf_map_get_next_key(fd, prev, key) == 0) {
			bpf_map_update_elem(fd, key, zero, BPF_EXIST);
			prev = key;
		}
	}
	free(key);
	free(zero);
	return 0;
}

static int cmp_u64(const void *x, const void *y)
{
	uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;

	return a < b ? -1 : a > b;
}

static bool has_u64(const uint64_t *v, size_t n, uint64_t x)
{
	return n && bsearch(&x, v, n, sizeof(*v), cmp_u64);
}

/* Push the stack ids of aggregation ag's kernel keys onto *ids. */
static int key_ids(const struct agg_state *st, const struct spec_agg *ag,
		   uint64_t **ids, size_t *n, size_t *cap)
{
	unsigned char *key = calloc(2, ag->kkey_size), *next = key + ag->kkey_size;

	if (!key)
		return -ENOMEM;
	for (int l = 0; l < ag->nlanes; l++) {
		int fd = st->sp->maps[ag->lanes[l]].fd;
		void *prev = NULL;

		while (bpf_map_get_next_key(fd, prev, next) == 0) {
			memcpy(key, next, ag->kkey_size);
			prev = key;
			for (int i = 0; i < ag->nkeys; i++) {
				if (!spec_key_by_id(&ag->keys[i].type))
					continue;
				if (*n == *cap) {
					size_t c = *cap ? *cap * 2 : 256;
					uint64_t *v = realloc(*ids, c * sizeof(*v));

					if (!v) {
						free(key);
						return -ENOMEM;
					}
					*ids = v, *cap = c;
				}
				memcpy(&(*ids)[(*n)++], key + ag->keys[i].koff, 8);
			}
		}
	}
	free(key);
	return 0;
}

/*
 * After trunc(), the stacks map lets go of the stacks no key names, so
 * that a script that truncates as it goes never fills it.  A program
 * stores a new stack a moment before it adds the key that names it, so
 * a stack no key names may be on its way to one: it is deleted only if
 * no key named it at the trunc() before either.  Errors leave the map as
 * it is: a full one costs drops, which are counted and reported.  An id
 * may be in more than one lane (spec.h): each lane is read, and a stack
 * that goes leaves them all.
 */
static int stacks_gc(struct agg_state *st)
{
	const struct spec *sp = st->sp;
	uint64_t *named = NULL, *stale = NULL, *gone = NULL;
	size_t nnamed = 0, cnamed = 0, nstale = 0, ngone = 0, cap = 0;
	uint64_t id;
	int rc = 0;

	if (!sp->nstacks_lanes)
		return 0;
	for (int i = 0; i < sp->naggs && rc == 0; i++)
		if (has_ids(&sp->aggs[i]))
			rc = key_ids(st, &sp->aggs[i], &named, &nnamed, &cnamed);
	if (rc == 0 && nnamed)
		qsort(named, nnamed, sizeof(*named), cmp_u64);
	for (int l = 0; l < sp->nstacks_lanes && rc == 0; l++) {
		uint64_t *prev = NULL;

		while (bpf_map_get_next_key(sp->maps[sp->stacks_lanes[l]].fd,
					    prev, &id) == 0) {
			prev = &id;
			if (has_u64(named, nnamed, id))
				continue;
			if (nstale == cap || ngone == cap) {
				size_t c = cap ? cap * 2 : 256;
				uint64_t *s = realloc(stale, c * sizeof(*s));
				uint64_t *g = s ? realloc(gone, c * sizeof(*g)) : NULL;

				if (s)
					stale = s;
				if (!g) {
					rc = -ENOMEM;
					break;
				}
				gone = g, cap = c;
			}
			if (has_u64(st->stale, st->nstale, id))
				gone[ngone++] = id;
			else
				stale[nstale++] = id;
		}
	}
	for (size_t i = 0; rc == 0 && i < ngone; i++)
		for (int l = 0; l < sp->nstacks_lanes; l++)
			bpf_map_delete_elem(sp->maps[sp->stacks_lanes[l]].fd,
					    &gone[i]);
	if (rc == 0) {
		if (nstale)
			qsort(stale, nstale, sizeof(*stale), cmp_u64);
		free(st->stale);
		st->stale = stale, st->nstale = nstale;
		stale = NULL;
	}
	free(named);
	free(stale);
	free(gone);
	return rc;
}

int agg_trunc(struct agg_state *st, int ai, bool has_n, int64_t n,
	      const struct agg_sort_opts *so)
{
	const struct spec_agg *ag = &st->sp->aggs[ai];

	if (!ag->nlanes)
		return 0;
	unsigned char *key = calloc(1, ag->kkey_size);

	if (!key)
		return -ENOMEM;
	if (!has_n || n == 0) {
		for (int l = 0; l < ag->nlanes; l++) {
			int fd = st->sp->maps[ag->lanes[l]].fd;

			while (bpf_map_get_next_key(fd, NULL, key) == 0)
				if (bpf_map_delete_elem(fd, key) < 0)
					break;
		}
		free(key);
		return stacks_gc(st);
	}
	/* keep the first n rows in sort order (the last -n when negative) */
	struct arena a = { 0 };
	struct agg_data data;

	/* the keys as the map has them, to delete by (not folded: a row of
	 * ufunc() stands for many entries) */
	snapshot(st, ai, &a, &data, false);
	agg_sort(data.rows, data.nrows, data.desc, so);
	int keep = (int)(n < 0 ? -n : n);
	for (int i = 0; i < data.nrows; i++) {
		bool kept = n > 0 ? i >= data.nrows - keep : i < keep;

		if (kept)
			continue;
		/* by the map's own bytes: a key rebuilt from its values
		 * loses what they do not hold (a stack's frames); from
		 * each lane, which all hold a key alike */
		for (int l = 0; l < ag->nlanes; l++)
			bpf_map_delete_elem(st->sp->maps[ag->lanes[l]].fd,
					    data.rows[i]->raw);
	}
	free(key);
	arena_free(&a);
	return stacks_gc(st);
}
