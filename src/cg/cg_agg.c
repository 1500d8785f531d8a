/*
 * cg_agg.c -- aggregating functions in BPF.
 *
 * Each aggregation is a PERCPU_HASH map (DESIGN.md 3.3): a firing looks
 * up its key in this CPU's copy, creates the entry on first use, and folds
 * the value in with plain loads and stores -- no atomics, no sharing.  The
 * value layout per function is aggprint.h's; user space merges the CPUs.
 * Where a firing cannot make a new entry (the kernel's per-CPU cache of
 * new values is empty while interrupts are off), the key goes to the
 * aggregation's next map, its next lane (spec.h), and user space merges
 * the lanes as it merges CPUs.
 *
 * Quantizations compute their bucket in BPF with straight-line code: no
 * loops, every bound a constant (llquantize's magnitudes are unrolled),
 * and each index clamped to the last bucket with a compare just before it
 * becomes a map-value offset, so the verifier proves the access in range
 * without following the arithmetic.  agg_quantize_bucket() and friends in
 * aggprint.c are the specification these sequences implement.
 */
#include <errno.h>
#include <string.h>

#include "cg/cg_impl.h"

/* Aggregation ai's map of lane l (spec.h), made when first wanted. */
static int agg_lane(struct cg *g, int ai, int l)
{
	struct spec_agg *ag = &g->spec->aggs[ai];
	struct spec *sp = g->spec;

	while (ag->nlanes <= l) {
		struct spec_map *m = ARENA_PUSH(g->a, sp->maps, sp->nmaps,
						g->c->maps_cap);
		const char *name = ag->name[0] ? ag->name : "_";

		m->name = ag->nlanes ? arena_printf(g->a, "agg%d_%.10s",
						    ag->nlanes, name)
				     : arena_printf(g->a, "agg_%.10s", name);
		m->type = BPF_MAP_TYPE_PERCPU_HASH;
		m->key_size = ag->kkey_size;
		m->value_size = ag->nwords * 8;
		m->max_entries = g->c->aggsize_entries;	/* compile.c: from aggsize */
		m->flags = BPF_F_NO_PREALLOC;	/* entries cost memory when used */
		m->fd = -1;
		m->nestable = true;
		ag->lanes[ag->nlanes++] = sp->nmaps - 1;
	}
	return ag->lanes[l];
}

/*
 * The stacks of every aggregation's stack keys, by id (spec.h's
 * spec_agg): a HASH whose values are as wide as the widest such key;
 * entries cost memory when used.  compile.c bounds its entries as it
 * does an aggregation's.  Lane l of it (spec.h), made when first wanted.
 */
static int stacks_lane(struct cg *g, int l)
{
	struct spec *sp = g->spec;
	uint32_t size = 8;

	for (int i = 0; i < sp->naggs; i++)
		for (int k = 0; k < sp->aggs[i].nkeys; k++) {
			const struct dtype *t = &sp->aggs[i].keys[k].type;

			if (spec_key_by_id(t) && cg_round8(t->size) > size)
				size = cg_round8(t->size);
		}
	while (sp->nstacks_lanes <= l) {
		struct spec_map *m = ARENA_PUSH(g->a, sp->maps, sp->nmaps,
						g->c->maps_cap);

		m->name = sp->nstacks_lanes ? arena_printf(g->a, "dscope_stacks%d",
							   sp->nstacks_lanes)
					    : "dscope_stacks";
		m->type = BPF_MAP_TYPE_HASH;
		m->key_size = 8;
		m->value_size = size;
		m->max_entries = g->c->aggsize_entries;
		m->flags = BPF_F_NO_PREALLOC;
		m->fd = -1;
		sp->stacks_lanes[sp->nstacks_lanes++] = sp->nmaps - 1;
	}
	return sp->stacks_lanes[l];
}

/*
 * The lanes the k-th use (from 0) of a map in one program tries: the k
 * uses before it take at most one new entry each, from one lane or
 * another, so k + 1 lanes leave this one a lane with room, and one more
 * is for a firing of another program in the same window (a tick's
 * clauses beside a profile's: the cloud guest under load lost a key with
 * one lane).  agg_site_lanes bounds them by the maps a program may name.
 */
static int site_lanes(int k)
{
	return k + 2 < SPEC_AGG_LANES ? k + 2 : SPEC_AGG_LANES;
}

/*
 * The lanes past the first come out of what the script's aggregations,
 * its dynamic variables (a map each) and dscope's own maps leave of the
 * 64 a program may name (MAP_LIMIT, cg_impl.h).  Past the budget, later
 * uses keep one lane, as before lanes, and a new key that finds no room
 * is a drop, reported.
 */
static int agg_site_lanes(struct cg *g, int ai)
{
	int want = site_lanes(g->agg_sites[ai]++);
	int budget = MAP_LIMIT - MAP_FIXED - g->spec->naggs - g->spec->ndvars -
		     g->extra_lanes;
	int lanes = 1;

	if (!g->agg_lanes_used)
		g->agg_lanes_used = arena_alloc(g->a, (size_t)g->spec->naggs);
	for (; lanes < want; lanes++) {
		if (g->agg_lanes_used[ai] & (1u << lanes))
			continue;
		if (budget <= 0)
			break;
		g->agg_lanes_used[ai] |= (uint8_t)(1u << lanes);
		g->extra_lanes++;
		budget--;
	}
	return lanes;
}

#define ID_MUL 0x9e3779b97f4a7c15ull	/* 2^64 / the golden ratio */

/*
 * A stack key's id, at scratch offset dst, and its words in the stacks
 * map.  The id hashes the key's size and the stack's words up to its
 * first zero one (the end: the rest are zero too), so two stacks with
 * one id are, but for a 64-bit collision, the same stack of the same
 * size.  The words are stored once, at the id's first use, in the first
 * of the stacks map's lanes with room (spec.h):
 *
 *	h = size; for each word w until a zero one: h = (h ^ w) * M; h ^= h >> 29
 *	h ^= h >> 32; h *= M; h ^= h >> 29; *dst = h
 *	if (lookup(stacks, dst)) goto known
 *	for each lane l of this use (site_lanes):
 *		if (l && lookup(stacks_l, dst)) goto known
 *		r0 = update(stacks_l, dst, the stack, NOEXIST)
 *		if (r0 == 0 || r0 == -EEXIST) goto known  (another CPU may have won)
 *	goto full
 * known:
 * The stack goes from its temp when that is as wide as the map's values;
 * else from a temp that wide, zero-padded.
 */
static void stack_id(struct cg *g, struct node *st, struct val v,
		     const struct spec_field *kf, uint32_t dst, int full)
{
	int lanes = site_lanes(g->stack_sites++);
	int map = stacks_lane(g, lanes - 1);
	uint32_t fsize = cg_round8(kf->type.size);
	uint32_t vsize = cg_round8(v.size);
	uint32_t words = (vsize < fsize ? vsize : fsize) / 8;
	uint32_t width = g->spec->maps[map].value_size, from = v.off;
	int end = emit_new_label(&g->e), known = emit_new_label(&g->e);

	emit_ld_imm64(&g->e, R3, ID_MUL);
	emit_mov_imm(&g->e, R1, (int32_t)fsize);
	for (uint32_t w = 0; w < words; w++) {
		emit_load(&g->e, 8, R2, R9, (int16_t)(v.off + 8 * w));
		emit_jmp_imm(&g->e, BPF_JEQ, R2, 0, end);
		emit_alu_reg(&g->e, BPF_XOR, R1, R2);
		emit_alu_reg(&g->e, BPF_MUL, R1, R3);
		emit_mov_reg(&g->e, R2, R1);
		emit_alu_imm(&g->e, BPF_RSH, R2, 29);
		emit_alu_reg(&g->e, BPF_XOR, R1, R2);
	}
	emit_label(&g->e, end);
	emit_mov_reg(&g->e, R2, R1);
	emit_alu_imm(&g->e, BPF_RSH, R2, 32);
	emit_alu_reg(&g->e, BPF_XOR, R1, R2);
	emit_alu_reg(&g->e, BPF_MUL, R1, R3);
	emit_mov_reg(&g->e, R2, R1);
	emit_alu_imm(&g->e, BPF_RSH, R2, 29);
	emit_alu_reg(&g->e, BPF_XOR, R1, R2);
	emit_store(&g->e, 8, R9, (int16_t)dst, R1);

	cg_ld_map(g, R1, stacks_lane(g, 0));
	cg_scratch_ptr(g, R2, dst);
	emit_call(&g->e, BPF_FUNC_map_lookup_elem);
	emit_jmp_imm(&g->e, BPF_JNE, R0, 0, known);
	if (vsize != fsize || vsize != width) {
		from = cg_temp_new(g, st, width);
		cg_copy_words(g, false, R9, from, width, R9, v.off, words * 8);
	}
	for (int l = 0; l < lanes; l++) {
		map = stacks_lane(g, l);
		if (l) {
			cg_ld_map(g, R1, map);
			cg_scratch_ptr(g, R2, dst);
			emit_call(&g->e, BPF_FUNC_map_lookup_elem);
			emit_jmp_imm(&g->e, BPF_JNE, R0, 0, known);
		}
		cg_ld_map(g, R1, map);
		cg_scratch_ptr(g, R2, dst);
		cg_scratch_ptr(g, R3, from);
		emit_mov_imm(&g->e, R4, BPF_NOEXIST);
		emit_call(&g->e, BPF_FUNC_map_update_elem);
		emit_jmp_imm(&g->e, BPF_JEQ, R0, 0, known);
		emit_jmp_imm(&g->e, BPF_JEQ, R0, -EEXIST, known);
	}
	emit_ja(&g->e, full);
	emit_label(&g->e, known);
}

/*
 * An aggregation's key as its map holds it (spec_agg): in a zeroed
 * scratch temp of kkey_size bytes, each key at its koff, a stack by its
 * id; goto full if a new stack finds the stacks map full.
 */
static uint32_t agg_key(struct cg *g, struct node *st,
			const struct spec_agg *ag, int full)
{
	uint32_t key = cg_temp_new(g, st, ag->kkey_size);

	cg_zero_words(g, R9, key, cg_round8(ag->kkey_size));
	for (int i = 0; i < st->args.n; i++) {
		const struct spec_field *kf = &ag->keys[i];
		struct val v = cg_expr(g, st->args.v[i]);

		if (spec_key_by_id(&kf->type))
			stack_id(g, st, v, kf, key + kf->koff, full);
		else
			cg_key_field(g, v, kf, key + kf->koff);
	}
	return key;
}

#define ZERO_MAP "dscope_aggzero"

/*
 * Every aggregation value but min's and max's starts as zeros.  Rather
 * than build them in scratch for each new entry (a quantize value is 1016
 * bytes), new entries copy them from an ARRAY[1] map as wide as the widest
 * value, which nothing ever writes.
 */
static int zero_map(struct cg *g)
{
	struct spec *sp = g->spec;
	uint32_t size = 8;

	for (int i = 0; i < sp->nmaps; i++)
		if (strcmp(sp->maps[i].name, ZERO_MAP) == 0)
			return i;
	for (int i = 0; i < sp->naggs; i++)
		if (sp->aggs[i].nwords * 8 > size)
			size = sp->aggs[i].nwords * 8;
	struct spec_map *m = ARENA_PUSH(g->a, sp->maps, sp->nmaps, g->c->maps_cap);

	m->name = ZERO_MAP;
	m->type = BPF_MAP_TYPE_ARRAY;
	m->key_size = 4;
	m->value_size = size;
	m->max_entries = 1;
	m->fd = -1;
	return sp->nmaps - 1;
}

#define INIT_ZEROS UINT32_MAX

/*
 * The initial value of a new entry: min and max build theirs in scratch,
 * at the offset returned; the others' are zeros (INIT_ZEROS).
 */
static uint32_t agg_init_value(struct cg *g, struct node *st,
			       const struct spec_agg *ag)
{
	if (ag->func != AGG_MIN && ag->func != AGG_MAX)
		return INIT_ZEROS;
	uint32_t off = cg_temp_new(g, st, 16);

	emit_ld_imm64(&g->e, R0, ag->func == AGG_MIN ? (uint64_t)INT64_MAX
						      : (uint64_t)INT64_MIN);
	emit_store(&g->e, 8, R9, (int16_t)off, R0);
	emit_store_imm(&g->e, 8, R9, (int16_t)(off + 8), 1);	/* seen */
	return off;
}

/* r3 = the initial value (agg_init_value) */
static void agg_init_ptr(struct cg *g, uint32_t init)
{
	if (init == INIT_ZEROS)
		emit_ld_map_value(&g->e, R3, zero_map(g), 0);
	else
		cg_scratch_ptr(g, R3, init);
}

/* *(u64 *)(r0 + off) += r1 */
static void add_word(struct cg *g, int16_t off)
{
	emit_load(&g->e, 8, R2, R0, off);
	emit_alu_reg(&g->e, BPF_ADD, R2, R1);
	emit_store(&g->e, 8, R0, off, R2);
}

/* if (r > max) r = max: lets the verifier prove a bucket offset in range */
static void clamp_max(struct cg *g, int reg, int32_t max)
{
	int ok = emit_new_label(&g->e);

	emit_jmp_imm(&g->e, BPF_JLE, reg, max, ok);
	emit_mov_imm(&g->e, reg, max);
	emit_label(&g->e, ok);
}

/* r1 = |r1| as an unsigned magnitude; r4 = 1 if r1 was negative */
static void magnitude(struct cg *g)
{
	int pos = emit_new_label(&g->e);

	emit_mov_imm(&g->e, R4, 0);
	emit_jmp_imm(&g->e, BPF_JSGE, R1, 0, pos);
	emit_alu_imm(&g->e, BPF_NEG, R1, 0);			/* r1 = -r1 */
	emit_mov_imm(&g->e, R4, 1);
	emit_label(&g->e, pos);
}

/*
 * quantize: r1 = agg_quantize_bucket(r1).  floor(log2 |v|) by a binary
 * search of shifts, no loop:
 *	for sh in 32 16 8 4 2 1:
 *		r2 = r1 >> sh; if (r2) { r1 = r2; r3 += sh }
 *	r1 = neg ? 62 - r3 (0 for INT64_MIN) : 64 + r3
 */
static void quantize_bucket(struct cg *g)
{
	int zero = emit_new_label(&g->e), done = emit_new_label(&g->e);
	int positive = emit_new_label(&g->e);

	emit_jmp_imm(&g->e, BPF_JEQ, R1, 0, zero);
	magnitude(g);
	emit_mov_imm(&g->e, R3, 0);
	for (int sh = 32; sh >= 1; sh >>= 1) {
		int skip = emit_new_label(&g->e);

		emit_mov_reg(&g->e, R2, R1);
		emit_alu_imm(&g->e, BPF_RSH, R2, sh);
		emit_jmp_imm(&g->e, BPF_JEQ, R2, 0, skip);
		emit_mov_reg(&g->e, R1, R2);
		emit_alu_imm(&g->e, BPF_ADD, R3, sh);
		emit_label(&g->e, skip);
	}
	emit_jmp_imm(&g->e, BPF_JEQ, R4, 0, positive);
	emit_mov_imm(&g->e, R1, AGG_QUANTIZE_ZERO - 1);
	emit_alu_reg(&g->e, BPF_SUB, R1, R3);
	emit_jmp_imm(&g->e, BPF_JSGE, R1, 0, done);
	emit_mov_imm(&g->e, R1, 0);				/* INT64_MIN */
	emit_ja(&g->e, done);
	emit_label(&g->e, positive);
	emit_mov_reg(&g->e, R1, R3);
	emit_alu_imm(&g->e, BPF_ADD, R1, AGG_QUANTIZE_ZERO + 1);
	emit_ja(&g->e, done);
	emit_label(&g->e, zero);
	emit_mov_imm(&g->e, R1, AGG_QUANTIZE_ZERO);
	emit_label(&g->e, done);
	clamp_max(g, R1, AGG_QUANTIZE_NBUCKETS - 1);
}

/*
 * lquantize: r1 = agg_lquantize_bucket(r1, base, levels, step):
 *	if (v s< base) r1 = 0
 *	else { r1 = (u64)(v - base) / step; r1 = min(r1, levels) + 1 }
 */
static void lquantize_bucket(struct cg *g, const struct spec_agg *ag)
{
	int32_t base = (int32_t)ag->params[0], step = (int32_t)ag->params[2];
	int32_t levels = agg_lquantize_levels(ag->params[0], ag->params[1],
					      ag->params[2]);
	int under = emit_new_label(&g->e), done = emit_new_label(&g->e);

	emit_jmp_imm(&g->e, BPF_JSLT, R1, base, under);
	emit_alu_imm(&g->e, BPF_SUB, R1, base);
	emit_alu_imm(&g->e, BPF_DIV, R1, step);			/* unsigned */
	clamp_max(g, R1, levels);
	emit_alu_imm(&g->e, BPF_ADD, R1, 1);
	emit_ja(&g->e, done);
	emit_label(&g->e, under);
	emit_mov_imm(&g->e, R1, 0);
	emit_label(&g->e, done);
	clamp_max(g, R1, levels + 1);
}

static uint64_t upow(uint64_t b, int e)
{
	uint64_t r = 1;

	while (e-- > 0)
		r *= b;
	return r;
}

/*
 * llquantize: r1 = agg_llquantize_bucket(r1, factor, low, high, steps),
 * unrolled over the magnitudes, whose bounds are all constants:
 *	mag = |v|
 *	if (mag < factor^low) bucket = 0
 *	else for m in low..high: if (mag < factor^(m+1)) {
 *		idx = m ? mag / (factor^(m+1) / steps) : mag * steps / factor
 *		bucket = (m - low) * per_mag + idx - steps / factor + 1 }
 *	else bucket = (high - low + 1) * per_mag + 1
 *	r1 = zero +/- bucket
 */
static void llquantize_bucket(struct cg *g, const struct spec_agg *ag)
{
	int factor = (int)ag->params[0], low = (int)ag->params[1];
	int high = (int)ag->params[2], steps = (int)ag->params[3];
	int per_mag = steps - steps / factor;
	int zero = 1 + (high - low + 1) * per_mag;
	int nb = agg_llquantize_nbuckets(factor, low, high, steps);
	int have = emit_new_label(&g->e), sign = emit_new_label(&g->e);
	int pos = emit_new_label(&g->e), done = emit_new_label(&g->e);

	magnitude(g);
	emit_ld_imm64(&g->e, R2, upow((uint64_t)factor, low));
	emit_mov_imm(&g->e, R3, 0);
	emit_jmp_reg(&g->e, BPF_JLT, R1, R2, sign);		/* underflow */
	for (int m = low; m <= high; m++) {
		uint64_t max = upow((uint64_t)factor, m + 1);
		int next = emit_new_label(&g->e);

		emit_ld_imm64(&g->e, R2, max);
		emit_jmp_reg(&g->e, BPF_JGE, R1, R2, next);
		if (m) {
			emit_ld_imm64(&g->e, R2, max / (uint64_t)steps);
			emit_alu_reg(&g->e, BPF_DIV, R1, R2);
		} else {
			emit_alu_imm(&g->e, BPF_MUL, R1, steps);
			emit_alu_imm(&g->e, BPF_DIV, R1, factor);
		}
		emit_alu_imm(&g->e, BPF_ADD, R1,
			     (m - low) * per_mag - steps / factor + 1);
		emit_mov_reg(&g->e, R3, R1);
		emit_ja(&g->e, have);
		emit_label(&g->e, next);
	}
	emit_mov_imm(&g->e, R3, (high - low + 1) * per_mag + 1);
	emit_label(&g->e, have);
	clamp_max(g, R3, nb - 1 - zero);
	emit_label(&g->e, sign);
	emit_mov_imm(&g->e, R1, zero);
	emit_jmp_imm(&g->e, BPF_JEQ, R4, 0, pos);
	emit_alu_reg(&g->e, BPF_SUB, R1, R3);
	emit_ja(&g->e, done);
	emit_label(&g->e, pos);
	emit_alu_reg(&g->e, BPF_ADD, R1, R3);
	emit_label(&g->e, done);
	clamp_max(g, R1, nb - 1);
}

/*
 * stddev: [n, s, sumsq_lo, sumsq_hi] += [1, v, v * v] with v * v in 128
 * bits, as dtrace_aggregate_stddev: a = |v| = ah << 32 | al,
 *	a * a = ah*ah << 64 + 2*ah*al << 32 + al*al
 * r1 holds v; r0 the entry.
 */
static void stddev_apply(struct cg *g)
{
	int nc1 = emit_new_label(&g->e), nc2 = emit_new_label(&g->e);

	add_word(g, 8);						/* s += v */
	magnitude(g);
	emit_mov_reg(&g->e, R2, R1);
	emit_alu_imm(&g->e, BPF_RSH, R2, 32);			/* r2 = ah */
	emit_alu32_reg(&g->e, BPF_MOV, R1, R1);			/* r1 = al */
	emit_mov_reg(&g->e, R3, R1);
	emit_alu_reg(&g->e, BPF_MUL, R3, R2);
	emit_alu_imm(&g->e, BPF_LSH, R3, 1);			/* r3 = 2 ah al */
	emit_alu_reg(&g->e, BPF_MUL, R2, R2);			/* r2 = ah ah */
	emit_alu_reg(&g->e, BPF_MUL, R1, R1);			/* r1 = al al */
	emit_mov_reg(&g->e, R4, R3);
	emit_alu_imm(&g->e, BPF_LSH, R4, 32);
	emit_alu_reg(&g->e, BPF_ADD, R4, R1);			/* r4 = lo */
	emit_alu_imm(&g->e, BPF_RSH, R3, 32);
	emit_alu_reg(&g->e, BPF_ADD, R2, R3);			/* r2 = hi */
	emit_jmp_reg(&g->e, BPF_JGE, R4, R1, nc1);
	emit_alu_imm(&g->e, BPF_ADD, R2, 1);			/* carry */
	emit_label(&g->e, nc1);
	emit_load(&g->e, 8, R1, R0, 16);
	emit_alu_reg(&g->e, BPF_ADD, R4, R1);			/* lo += old lo */
	emit_jmp_reg(&g->e, BPF_JGE, R4, R1, nc2);
	emit_alu_imm(&g->e, BPF_ADD, R2, 1);
	emit_label(&g->e, nc2);
	emit_store(&g->e, 8, R0, 16, R4);
	emit_load(&g->e, 8, R1, R0, 24);
	emit_alu_reg(&g->e, BPF_ADD, R1, R2);
	emit_store(&g->e, 8, R0, 24, R1);
	emit_mov_imm(&g->e, R1, 1);
	add_word(g, 0);						/* n += 1 */
}

/*
 * r0 points at the entry, the value is in vslot and the increment in
 * islot (quantizations): fold them in.
 */
static void agg_apply(struct cg *g, const struct spec_agg *ag, int16_t vslot,
		      int16_t islot)
{
	int done = emit_new_label(&g->e);

	cg_load_slot(g, R1, vslot);
	switch (ag->func) {
	case AGG_COUNT:
		emit_mov_imm(&g->e, R1, 1);
		add_word(g, 0);
		break;
	case AGG_SUM:
		add_word(g, 0);
		break;
	case AGG_AVG:
		add_word(g, 8);
		emit_mov_imm(&g->e, R1, 1);
		add_word(g, 0);
		break;
	case AGG_MIN:
	case AGG_MAX: {
		/*
		 * { value, seen }.  The CPU that creates an entry writes its
		 * initial value; every other CPU's copy starts as the
		 * kernel's zeros, seen 0, and takes its first value whatever
		 * it is -- compared with that 0, a max of negatives or a min
		 * of positives would be lost, and a copy left unseen is
		 * skipped when the CPUs' copies are merged.
		 *
		 *	if (p->seen && (v >= p->value [min] / v <= [max])) done
		 *	p->value = v; p->seen = 1
		 */
		int store = emit_new_label(&g->e);

		emit_load(&g->e, 8, R2, R0, 8);
		emit_jmp_imm(&g->e, BPF_JEQ, R2, 0, store);
		emit_load(&g->e, 8, R2, R0, 0);
		emit_jmp_reg(&g->e, ag->func == AGG_MIN ? BPF_JSGE : BPF_JSLE,
			     R1, R2, done);
		emit_label(&g->e, store);
		emit_store(&g->e, 8, R0, 0, R1);
		emit_store_imm(&g->e, 8, R0, 8, 1);
		break;
	}
	case AGG_STDDEV:
		stddev_apply(g);
		break;
	case AGG_QUANTIZE:
	case AGG_LQUANTIZE:
	case AGG_LLQUANTIZE:
		if (ag->func == AGG_QUANTIZE)
			quantize_bucket(g);
		else if (ag->func == AGG_LQUANTIZE)
			lquantize_bucket(g, ag);
		else
			llquantize_bucket(g, ag);
		emit_alu_imm(&g->e, BPF_LSH, R1, 3);
		emit_alu_reg(&g->e, BPF_ADD, R0, R1);		/* r0 = &bucket */
		cg_load_slot(g, R1, islot);
		add_word(g, 0);
		break;
	}
	emit_label(&g->e, done);
}

/* Evaluate an integer argument into a slot of its own. */
static int16_t arg_slot(struct cg *g, struct node *st, struct node *arg,
			int32_t dflt)
{
	int16_t slot = cg_slot_new(g, st);

	if (!arg) {
		emit_mov_imm(&g->e, R0, dflt);
	} else {
		struct val v = cg_expr(g, arg);

		cg_load_slot(g, R0, v.slot);
	}
	cg_store_slot(g, slot, R0);
	return slot;
}

/* The increment argument of quantize/lquantize/llquantize, if given. */
static struct node *incr_arg(const struct spec_agg *ag, const struct node *call)
{
	int pos = ag->func == AGG_QUANTIZE ? 1 : ag->func == AGG_LQUANTIZE ? 4
		: ag->func == AGG_LLQUANTIZE ? 5 : -1;

	if (ag->func == AGG_LQUANTIZE && call->args.n == 4)
		return NULL;	/* lquantize(v, base, limit, step) */
	return pos >= 0 && pos < call->args.n ? call->args.v[pos] : NULL;
}

/*
 * @name[keys] = func(value[, params][, incr]):
 *	key = { keys }                     (in scratch, NUL-padded)
 *	p = lookup(lane 0, key)
 *	for each lane l of this use (site_lanes), while !p:
 *		if (l) p = lookup(lane l, key)
 *		if (!p) { update(lane l, key, &zeros or init, NOEXIST); p = lookup(lane l, key) }
 *	if (!p) drops.agg++; else fold value into *p
 * A key found at once, the usual case, costs one lookup as it would with
 * one map; the lanes cost only where a new key finds no room.
 */
void cg_agg_stmt(struct cg *g, struct node *st)
{
	const struct spec_agg *ag = &g->spec->aggs[st->sym];
	struct node *call = st->call;
	int have = emit_new_label(&g->e), drop = emit_new_label(&g->e);
	int done = emit_new_label(&g->e);
	int16_t vslot = arg_slot(g, st, call->args.n ? call->args.v[0] : NULL, 0);
	int16_t islot = arg_slot(g, st, incr_arg(ag, call), 1);
	uint32_t key = agg_key(g, st, ag, drop), init;

	if (!g->agg_sites)
		g->agg_sites = arena_alloc(g->a, sizeof(int) *
					   (size_t)g->spec->naggs);
	int lanes = agg_site_lanes(g, st->sym);

	cg_ld_map(g, R1, agg_lane(g, st->sym, 0));
	cg_scratch_ptr(g, R2, key);
	emit_call(&g->e, BPF_FUNC_map_lookup_elem);
	emit_jmp_imm(&g->e, BPF_JNE, R0, 0, have);

	init = agg_init_value(g, st, ag);
	for (int l = 0; l < lanes; l++) {
		int map = agg_lane(g, st->sym, l);

		if (l) {
			cg_ld_map(g, R1, map);
			cg_scratch_ptr(g, R2, key);
			emit_call(&g->e, BPF_FUNC_map_lookup_elem);
			emit_jmp_imm(&g->e, BPF_JNE, R0, 0, have);
		}
		cg_ld_map(g, R1, map);
		cg_scratch_ptr(g, R2, key);
		agg_init_ptr(g, init);
		emit_mov_imm(&g->e, R4, BPF_NOEXIST);
		emit_call(&g->e, BPF_FUNC_map_update_elem);
		cg_ld_map(g, R1, map);
		cg_scratch_ptr(g, R2, key);
		emit_call(&g->e, BPF_FUNC_map_lookup_elem);
		emit_jmp_imm(&g->e, BPF_JNE, R0, 0, have);
	}
	emit_ja(&g->e, drop);
	emit_label(&g->e, have);
	agg_apply(g, ag, vslot, islot);
	emit_ja(&g->e, done);
	emit_label(&g->e, drop);
	cg_count_drop(g, offsetof(struct drop_counts, agg));
	emit_label(&g->e, done);
}

bool cg_agg_action(struct cg *g, struct node *n)
{
	struct spec_action *act;
	enum act_kind kind;

	switch (n->fn) {
	case DF_PRINTA:
		act = cg_new_action(g, ACT_PRINTA);
		act->fmt = n->cg;
		if (fmt_names_uaddr(act->fmt))	/* %A: the target's maps */
			g->spec->user_stacks = true;
		cg_agg_list(g, act, &n->args, n->cg ? 1 : 0, n->args.n);
		return true;
	/* actions on one aggregation; their other arguments are recorded */
	case DF_CLEAR: kind = ACT_CLEAR; break;
	case DF_TRUNC: kind = ACT_TRUNC; break;
	case DF_NORMALIZE: kind = ACT_NORMALIZE; break;
	case DF_DENORMALIZE: kind = ACT_DENORMALIZE; break;
	case DF_SETOPT:
		act = cg_new_action(g, ACT_SETOPT);
		cg_record_args(g, act, &n->args, 0);
		return true;
	default:
		return false;
	}
	act = cg_new_action(g, kind);
	cg_agg_list(g, act, &n->args, 0, 1);
	cg_record_args(g, act, &n->args, 1);
	return true;
}
