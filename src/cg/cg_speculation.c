/*
 * cg_speculation.c -- speculations: speculation(), speculate(), commit(),
 * discard().
 *
 * The kernel side only hands out and takes back IDs (spec.h): MAP_SPEC
 * holds one word per ID, generation << 1 | active, changed only by
 * compare-and-exchange (BPF_ATOMIC | BPF_CMPXCHG), so two CPUs never
 * claim or end the same speculation twice.  Nothing speculative is kept
 * in the kernel: a speculative clause writes its record to the principal
 * buffer like any other, tagged with (ID, generation), and the consumer
 * holds it back until the commit or discard of that tag reaches it.
 * Since an ID is free again as soon as it is committed or discarded, the
 * generation is what tells its successive uses apart.
 *
 * The tag of a speculative clause is the first field of its record, at
 * REC_HDR, reserved and zeroed when the clause starts: a clause whose
 * speculate() did not run (an if) still has a well-defined tag, 0, and
 * is then an ordinary record.  speculate() on 0, an ID out of range or
 * an inactive one abandons the rest of the clause, as DTrace drops its
 * data; commit() and discard() of an ID out of range are an illegal
 * operation (DTrace's fault), of 0 or an inactive ID nothing.
 */
#include <string.h>

#include "cg/cg_impl.h"
#include "front/sema.h"
#include "kern/kcaps.h"

/* *(u64 *)(ptr + 0): r0 = cmpxchg(ptr, r0, src); a kernel without it
 * (before 5.12) refuses the script's speculations, at n. */
static void emit_cmpxchg(struct cg *g, const struct node *n, int ptr, int src)
{
	struct bpf_insn insn = {
		.code = BPF_STX | BPF_DW | BPF_ATOMIC,
		.dst_reg = (uint8_t)ptr,
		.src_reg = (uint8_t)src,
		.off = 0,
		.imm = BPF_CMPXCHG,
	};

	if (!kcaps_has(KCAP_ATOMIC_FETCH))
		diag_fail(g->d, n->line, n->col, "D_UNSUPPORTED",
			  "%s() needs compare-and-exchange, which this kernel's BPF lacks "
			  "(atomic_fetch in dscope -vV; Linux 5.12+)", n->str);
	emit_insn(&g->e, insn);
}

/* r0 = &MAP_SPEC[*(u32 *)(fp + key)], or goto miss if absent */
static void slot_lookup(struct cg *g, int16_t key, int miss)
{
	cg_ld_map(g, R1, MAP_SPEC);
	cg_fp_ptr(g, R2, key);
	emit_call(&g->e, BPF_FUNC_map_lookup_elem);
	emit_jmp_imm(&g->e, BPF_JEQ, R0, 0, miss);
}

static bool calls(const struct node_list *body, enum dfunc fn)
{
	for (int i = 0; i < body->n; i++) {
		const struct node *n = body->v[i];

		if (n->kind == S_EXPR && n->a->kind == N_CALL && n->a->fn == fn)
			return true;
		if ((n->kind == S_IF || n->kind == S_BLOCK) &&
		    (calls(&n->body, fn) || calls(&n->else_body, fn)))
			return true;
	}
	return false;
}

static struct spec_action *find_action(struct cg *g, enum act_kind kind)
{
	for (int i = 0; i < g->ep->nacts; i++)
		if (g->ep->acts[i].kind == kind)
			return &g->ep->acts[i];
	return NULL;
}

/* A new action with one u64 field at the next record offset, zeroed. */
static struct spec_action *tag_action(struct cg *g, const struct node *n,
				      enum act_kind kind)
{
	struct spec_action *act = cg_new_action(g, kind);

	if (g->rec + 8 > REC_MAX)
		diag_fail(g->d, n->line, n->col, "D_RECORD_SIZE",
			  "actions of this clause record more than %d bytes",
			  REC_MAX);
	act->nfields = 1;
	act->fields = arena_alloc(g->a, sizeof(*act->fields));
	act->fields[0].off = g->rec;
	act->fields[0].type = type_int(8, false);
	emit_store_imm(&g->e, 8, R9, (int16_t)g->rec, 0);
	g->rec += 8;
	return act;
}

void cg_speculation_clause_begin(struct cg *g, const struct node_list *body)
{
	if (calls(body, DF_SPECULATE))
		tag_action(g, body->v[0], ACT_SPECULATE);
}

/* A speculation with nothing recorded still records the probe, as the
 * default action of an empty clause does. */
void cg_speculation_clause_end(struct cg *g)
{
	if (!find_action(g, ACT_SPECULATE))
		return;
	for (int i = 0; i < g->ep->nacts; i++)
		if (g->ep->acts[i].kind != ACT_SPECULATE &&
		    g->ep->acts[i].kind != ACT_COMMIT &&
		    g->ep->acts[i].kind != ACT_DISCARD)
			return;
	cg_new_action(g, ACT_DEFAULT);
}

/*
 * The counter i must stay a known number to the verifier, or it cannot
 * see the loop end.  Verifiers before 6.3 forget what a stack slot holds
 * when a helper is given its address (the lookup's key) and when an
 * immediate is stored there: so i is set from a register and copied to
 * a key slot of its own for each lookup.
 *
 *	for (i = 1; i <= nspec; i++) {
 *		key = i; w = spec[key]
 *		if (w & ACTIVE) continue
 *		if (cmpxchg(&spec[i], w, w + 2 + ACTIVE) == w)	generation + 1
 *			return i
 *	}
 *	drops.specunavail++; return 0
 */
struct val cg_speculation(struct cg *g, struct node *n)
{
	int16_t res = cg_slot_new(g, n), i = cg_slot_new(g, n);
	int16_t key = cg_slot_new(g, n);
	int loop = emit_new_label(&g->e), next = emit_new_label(&g->e);
	int fail = emit_new_label(&g->e), done = emit_new_label(&g->e);

	emit_store_imm(&g->e, 8, R10, res, 0);
	emit_mov_imm(&g->e, R0, 1);
	cg_store_slot(g, i, R0);
	emit_label(&g->e, loop);
	cg_load_slot(g, R0, i);
	emit_jmp_imm(&g->e, BPF_JGT, R0, (int32_t)g->spec->nspec, fail);
	cg_store_slot(g, key, R0);
	slot_lookup(g, key, next);
	emit_load(&g->e, 8, R1, R0, 0);			/* r1 = w */
	emit_mov_reg(&g->e, R2, R1);
	emit_alu_imm(&g->e, BPF_AND, R2, SPEC_ACTIVE);
	emit_jmp_imm(&g->e, BPF_JNE, R2, 0, next);
	emit_mov_reg(&g->e, R2, R1);
	emit_alu_imm(&g->e, BPF_ADD, R2, 2 + SPEC_ACTIVE);
	emit_mov_reg(&g->e, R3, R0);
	emit_mov_reg(&g->e, R0, R1);
	emit_cmpxchg(g, n, R3, R2);
	emit_jmp_reg(&g->e, BPF_JNE, R0, R1, next);
	cg_load_slot(g, R0, i);
	cg_store_slot(g, res, R0);
	emit_ja(&g->e, done);
	emit_label(&g->e, next);
	cg_load_slot(g, R0, i);
	emit_alu_imm(&g->e, BPF_ADD, R0, 1);
	cg_store_slot(g, i, R0);
	emit_ja(&g->e, loop);
	emit_label(&g->e, fail);
	cg_count_drop(g, offsetof(struct drop_counts, specunavail));
	emit_label(&g->e, done);
	return cg_int_val(res);
}

/* r1 = tag of id (in slot) and generation w >> 1 (in r1) */
static void make_tag(struct cg *g, int16_t id)
{
	emit_alu_imm(&g->e, BPF_RSH, R1, 1);
	emit_alu_imm(&g->e, BPF_LSH, R1, 32);
	cg_load_slot(g, R2, id);
	emit_alu_imm(&g->e, BPF_LSH, R2, 32);
	emit_alu_imm(&g->e, BPF_RSH, R2, 32);
	emit_alu_reg(&g->e, BPF_OR, R1, R2);
}

/*
 *	if (id - 1 >= nspec) goto clause_end	0, negative, too large
 *	w = spec[id]; if (!(w & ACTIVE)) goto clause_end
 *	rec->tag = SPEC_TAG(id, w >> 1)
 */
static void speculate(struct cg *g, struct node *n)
{
	struct spec_action *act = find_action(g, ACT_SPECULATE);
	struct val v = cg_expr(g, n->args.v[0]);

	cg_load_slot(g, R0, v.slot);
	emit_alu_imm(&g->e, BPF_SUB, R0, 1);
	emit_jmp_imm(&g->e, BPF_JGE, R0, (int32_t)g->spec->nspec, g->clause_end);
	slot_lookup(g, v.slot, g->clause_end);
	emit_load(&g->e, 8, R1, R0, 0);
	emit_mov_reg(&g->e, R2, R1);
	emit_alu_imm(&g->e, BPF_AND, R2, SPEC_ACTIVE);
	emit_jmp_imm(&g->e, BPF_JEQ, R2, 0, g->clause_end);
	make_tag(g, v.slot);
	emit_store(&g->e, 8, R9, (int16_t)act->fields[0].off, R1);
}

/*
 *	rec->tag = 0
 *	if (id == 0) goto done
 *	if (id - 1 >= nspec) fault(ILLOP)
 *	w = spec[id]; if (!(w & ACTIVE)) goto done
 *	if (cmpxchg(&spec[id], w, w & ~ACTIVE) != w) goto done	ended elsewhere
 *	rec->tag = SPEC_TAG(id, w >> 1)
 */
static void end_speculation(struct cg *g, struct node *n, enum act_kind kind)
{
	struct spec_action *act = tag_action(g, n, kind);
	struct val v = cg_expr(g, n->args.v[0]);
	int done = emit_new_label(&g->e), valid = emit_new_label(&g->e);

	cg_load_slot(g, R0, v.slot);
	emit_jmp_imm(&g->e, BPF_JEQ, R0, 0, done);
	emit_alu_imm(&g->e, BPF_SUB, R0, 1);
	emit_jmp_imm(&g->e, BPF_JLT, R0, (int32_t)g->spec->nspec, valid);
	cg_fault(g, FLT_ILLOP, -1);
	emit_label(&g->e, valid);
	slot_lookup(g, v.slot, done);
	emit_load(&g->e, 8, R1, R0, 0);
	emit_mov_reg(&g->e, R2, R1);
	emit_alu_imm(&g->e, BPF_AND, R2, SPEC_ACTIVE);
	emit_jmp_imm(&g->e, BPF_JEQ, R2, 0, done);
	emit_mov_reg(&g->e, R2, R1);
	emit_alu_imm(&g->e, BPF_XOR, R2, SPEC_ACTIVE);
	emit_mov_reg(&g->e, R3, R0);
	emit_mov_reg(&g->e, R0, R1);
	emit_cmpxchg(g, n, R3, R2);
	emit_jmp_reg(&g->e, BPF_JNE, R0, R1, done);
	make_tag(g, v.slot);
	emit_store(&g->e, 8, R9, (int16_t)act->fields[0].off, R1);
	emit_label(&g->e, done);
}

bool cg_speculation_action(struct cg *g, struct node *n)
{
	switch (n->fn) {
	case DF_SPECULATE:
		speculate(g, n);
		return true;
	case DF_COMMIT:
		end_speculation(g, n, ACT_COMMIT);
		return true;
	case DF_DISCARD:
		end_speculation(g, n, ACT_DISCARD);
		return true;
	default:
		return false;
	}
}
