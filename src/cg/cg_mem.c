/*
 * cg_mem.c -- reading kernel memory: members, array elements, pointer
 * targets, strings behind char pointers.
 *
 * An lvalue in kernel memory is an address computed into a stack slot
 * (cg_mem_addr); only scalars are read, with bpf_probe_read_kernel, whose
 * failure is a fault reported as DTrace reports "invalid address" (see
 * cg_kread).  Struct, union and array values stay addresses (sema_type.c
 * explains the model), so a->b.c[2] costs one read, of the last scalar.
 */
#include "cg/cg_impl.h"

#include "front/ctype.h"

static int16_t mem_addr(struct cg *g, struct node *n);

/* slot = the address of the object n denotes */
static int16_t mem_addr(struct cg *g, struct node *n)
{
	int16_t slot = cg_slot_new(g, n);
	struct val base;

	switch (n->kind) {
	case N_MEMBER: {
		const struct cmember *m = n->cg;

		/* a.m: a's value is its address; p->m: p's value is one */
		base = cg_expr(g, n->a);
		cg_load_slot(g, R0, base.slot);
		if (m->off)
			emit_alu_imm(&g->e, BPF_ADD, R0, (int32_t)m->off);
		break;
	}
	case N_INDEX: {
		uint32_t esize = n->type.size ? n->type.size : 1;

		base = cg_expr(g, n->a);
		struct val ix = cg_expr(g, n->args.v[0]);

		cg_load_slot(g, R1, ix.slot);
		if (esize != 1)
			emit_alu_imm(&g->e, BPF_MUL, R1, (int32_t)esize);
		cg_load_slot(g, R0, base.slot);
		emit_alu_reg(&g->e, BPF_ADD, R0, R1);
		break;
	}
	default:	/* *p */
		base = cg_expr(g, n->a);
		cg_load_slot(g, R0, base.slot);
		break;
	}
	cg_store_slot(g, slot, R0);
	g->sp = slot;
	return slot;
}

struct val cg_mem_addr(struct cg *g, struct node *n)
{
	return cg_int_val(mem_addr(g, n));
}

/* the value of n: an aggregate's address, or the scalar read from it */
struct val cg_mem_read(struct cg *g, struct node *n)
{
	int16_t slot = mem_addr(g, n);
	const struct cmember *m = n->kind == N_MEMBER ? n->cg : NULL;
	const struct dtype *t = &n->type;

	if (t->kind == T_STRUCT || t->kind == T_ARRAY)
		return cg_int_val(slot);
	uint32_t size = t->size > 8 || t->size == 0 ? 8 : t->size;

	if (m && m->bit_width)	/* the bit-field's storage unit */
		size = (uint32_t)((m->bit_off + m->bit_width + 7) / 8);
	cg_load_slot(g, R3, slot);
	cg_kread(g, slot, (int)size, 0);	/* r0 = the bytes, zero-extended */
	if (m && m->bit_width) {
		/* shift the field to the top, then back down with its sign */
		int top = 64 - m->bit_off - m->bit_width;

		emit_alu_imm(&g->e, BPF_LSH, R0, top);
		emit_alu_imm(&g->e, t->is_signed ? BPF_ARSH : BPF_RSH, R0,
			     64 - m->bit_width);
	} else {
		cg_normalize(g, R0, t);
	}
	cg_store_slot(g, slot, R0);
	return cg_int_val(slot);
}

/* stringof(p): the NUL-terminated bytes at p, at most the type's bound */
struct val cg_stringof(struct cg *g, struct node *n)
{
	struct val v = { .str = true, .size = cg_round8(n->type.size) };
	int ok = emit_new_label(&g->e);
	struct val p;

	v.off = cg_temp_new(g, n, v.size);
	p = cg_expr(g, n->a);
	if (p.str)
		return p;
	cg_zero_words(g, R9, v.off, v.size);	/* keep the NUL padding */
	cg_scratch_ptr(g, R1, v.off);
	emit_mov_imm(&g->e, R2, (int32_t)n->type.size);
	cg_load_slot(g, R3, p.slot);
	emit_mov_reg(&g->e, R8, R3);
	emit_call(&g->e, BPF_FUNC_probe_read_kernel_str);
	emit_jmp_imm(&g->e, BPF_JSGE, R0, 0, ok);
	cg_fault(g, FLT_BADADDR, R8);
	emit_label(&g->e, ok);
	return v;
}
