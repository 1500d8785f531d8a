/*
 * cg_agg.c -- aggregating functions in BPF.
 *
 * Each aggregation is a PERCPU_HASH map (DESIGN.md 3.3): a firing looks
 * up its key in this CPU's copy, creates the entry on first use, and folds
 * the value in with plain loads and stores -- no atomics, no sharing.  The
 * value layout per function is aggprint.h's; user space merges the CPUs.
 */
#include <string.h>

#include "cg/cg_impl.h"

static int agg_map(struct cg *g, int ai)
{
	struct spec_agg *ag = &g->spec->aggs[ai];
	struct spec *sp = g->spec;

	if (ag->map >= 0)
		return ag->map;
	struct spec_map *m = ARENA_PUSH(g->a, sp->maps, sp->nmaps, g->c->maps_cap);

	m->name = arena_printf(g->a, "agg_%.10s", ag->name[0] ? ag->name : "_");
	m->type = BPF_MAP_TYPE_PERCPU_HASH;
	m->key_size = ag->key_size;
	m->value_size = ag->nwords * 8;
	m->max_entries = g->c->aggsize_entries;
	m->fd = -1;
	ag->map = sp->nmaps - 1;
	return ag->map;
}

/* The initial value of a new aggregation entry, word by word. */
static void agg_init_value(struct cg *g, const struct spec_agg *ag, uint32_t off)
{
	cg_zero_words(g, R9, off, ag->nwords * 8);
	if (ag->func == AGG_MIN || ag->func == AGG_MAX) {
		emit_ld_imm64(&g->e, R0, ag->func == AGG_MIN ? (uint64_t)INT64_MAX
							      : (uint64_t)INT64_MIN);
		emit_store(&g->e, 8, R9, (int16_t)off, R0);
	}
}

/* *(u64 *)(r0 + off) += r1 */
static void add_word(struct cg *g, int16_t off)
{
	emit_load(&g->e, 8, R2, R0, off);
	emit_alu_reg(&g->e, BPF_ADD, R2, R1);
	emit_store(&g->e, 8, R0, off, R2);
}

/* r0 points at the entry, r1 holds the value: fold it in */
static void agg_apply(struct cg *g, const struct spec_agg *ag)
{
	int done = emit_new_label(&g->e);

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
	case AGG_MAX:
		emit_load(&g->e, 8, R2, R0, 0);
		emit_jmp_reg(&g->e, ag->func == AGG_MIN ? BPF_JSGE : BPF_JSLE,
			     R1, R2, done);
		emit_store(&g->e, 8, R0, 0, R1);
		break;
	default:
		break;
	}
	emit_label(&g->e, done);
}

/*
 * @name[keys] = func(value):
 *	key = { keys }                     (in scratch, NUL-padded)
 *	p = lookup(map, key)
 *	if (!p) { update(map, key, init, NOEXIST); p = lookup(map, key) }
 *	if (!p) drops.agg++; else fold value into *p
 */
void cg_agg_stmt(struct cg *g, struct node *st)
{
	const struct spec_agg *ag = &g->spec->aggs[st->sym];
	int map = agg_map(g, st->sym);
	int16_t vslot = cg_slot_new(g, st);
	int have = emit_new_label(&g->e), drop = emit_new_label(&g->e);
	int done = emit_new_label(&g->e);

	if (st->call->args.n > 0) {
		struct val v = cg_expr(g, st->call->args.v[0]);

		cg_load_slot(g, R0, v.slot);
		cg_store_slot(g, vslot, R0);
	}
	uint32_t key = cg_temp_new(g, st, ag->key_size);

	cg_zero_words(g, R9, key, cg_round8(ag->key_size));
	for (int i = 0; i < st->args.n; i++) {
		struct val v = cg_expr(g, st->args.v[i]);
		const struct spec_field *kf = &ag->keys[i];

		if (v.str) {
			cg_copy_words(g, R9, key + kf->off, cg_round8(kf->type.size),
				   R9, v.off, v.size);
		} else {
			cg_load_slot(g, R0, v.slot);
			emit_store(&g->e, 8, R9, (int16_t)(key + kf->off), R0);
		}
	}
	cg_ld_map(g, R1, map);
	cg_scratch_ptr(g, R2, key);
	emit_call(&g->e, BPF_FUNC_map_lookup_elem);
	emit_jmp_imm(&g->e, BPF_JNE, R0, 0, have);

	uint32_t init = cg_temp_new(g, st, ag->nwords * 8);

	agg_init_value(g, ag, init);
	cg_ld_map(g, R1, map);
	cg_scratch_ptr(g, R2, key);
	cg_scratch_ptr(g, R3, init);
	emit_mov_imm(&g->e, R4, BPF_NOEXIST);
	emit_call(&g->e, BPF_FUNC_map_update_elem);
	cg_ld_map(g, R1, map);
	cg_scratch_ptr(g, R2, key);
	emit_call(&g->e, BPF_FUNC_map_lookup_elem);
	emit_jmp_imm(&g->e, BPF_JEQ, R0, 0, drop);
	emit_label(&g->e, have);
	cg_load_slot(g, R1, vslot);
	agg_apply(g, ag);
	emit_ja(&g->e, done);
	emit_label(&g->e, drop);
	cg_count_drop(g, offsetof(struct drop_counts, agg));
	emit_label(&g->e, done);
}


bool cg_agg_action(struct cg *g, struct node *n)
{
	const char *f = n->str;
	struct spec_action *act;

	if (strcmp(f, "printa") == 0) {
		act = cg_new_action(g, ACT_PRINTA);
		act->fmt = n->cg;
		cg_agg_list(g, act, &n->args, n->cg ? 1 : 0, n->args.n);
	} else if (strcmp(f, "clear") == 0 || strcmp(f, "trunc") == 0) {
		act = cg_new_action(g, f[0] == 'c' ? ACT_CLEAR : ACT_TRUNC);
		cg_agg_list(g, act, &n->args, 0, 1);
		if (n->args.n > 1) {
			struct node_list rest = { .v = n->args.v + 1, .n = 1 };

			cg_record_args(g, act, &rest, 0);
		}
	} else {
		return false;
	}
	return true;
}
