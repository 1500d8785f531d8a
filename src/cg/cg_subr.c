/*
 * cg_subr.c -- D subroutines in BPF.
 *
 * Strings are worked on in place in the scratch area, with three tools:
 *
 *  - bpf_probe_read_kernel_str() copies a string that sits in scratch to
 *    another place in scratch, stops at its NUL and says how long it was.
 *    Its source is any kernel address, so a run-time offset into a string
 *    needs no proof for the verifier; its destination and size do, and get
 *    it from a clamp (if (x > max) ...) just before the call.  strlen is a
 *    string copied onto itself; strjoin, substr, strchr, ... are copies.
 *  - loops over the bytes of a string run on the kernel's numeric iterator
 *    (the bpf_iter_num_new/next/destroy kfuncs) or, on kernels without it,
 *    as bpf_loop callbacks (see "loops" below): either way the verifier
 *    checks the body once, whatever the bound, so a loop nested in a loop
 *    costs no more to load than two loops.  What a loop carries from one
 *    iteration to the next lives in 8-byte scratch cells, which the
 *    verifier does not track; each value read back is clamped before it
 *    indexes anything.
 *  - word-at-a-time arithmetic where no loop is needed (toupper, tolower).
 *
 * Every string produced starts as a zeroed temp, so the NUL padding that
 * the rest of the generator relies on holds whatever was copied into it.
 * A result is never longer than its type's bound (sema's choice): copies
 * are limited to it, and strjoin truncates to it.
 *
 * A read that faults (a bad address for copyinstr, copyin, inet_ntoa or
 * a char * taken as a string) reports "invalid address" and abandons the
 * clause, as DTrace does; never from inside a loop, whose iterator must
 * be destroyed first.
 */
#include <stdio.h>
#include <string.h>

#include "cg/cg_impl.h"
#include "front/ctype.h"
#include "front/sema.h"
#include "kern/kcaps.h"
#include "kern/ktypes.h"
#include "obj/ksym.h"
#include "prov/catalog.h"

/* ---- small tools ---- */

/* call kernel function `name` (a kfunc, by its BTF id) */
static void kfunc_call(struct cg *g, const struct node *n, const char *name)
{
	int id = ktype_func_id(name);

	if (id < 0)
		diag_fail(g->d, n->line, n->col, "D_KTYPE",
			  "%s( ) needs the kernel function %s, which this kernel's "
			  "BTF does not list", n->str, name);
	emit_insn(&g->e, (struct bpf_insn){ .code = BPF_JMP | BPF_CALL,
					    .src_reg = BPF_PSEUDO_KFUNC_CALL,
					    .imm = id });
}

/* Scratch cells: loop state the verifier does not follow. */
static uint32_t cells_new(struct cg *g, const struct node *n, int count)
{
	return cg_temp_new(g, n, 8 * (uint32_t)count);
}

static void cell_load(struct cg *g, int reg, uint32_t cell)
{
	emit_load(&g->e, 8, reg, R9, (int16_t)cell);
}

static void cell_store(struct cg *g, uint32_t cell, int reg)
{
	emit_store(&g->e, 8, R9, (int16_t)cell, reg);
}

static void cell_set(struct cg *g, uint32_t cell, int32_t imm)
{
	emit_store_imm(&g->e, 8, R9, (int16_t)cell, imm);
}

/* if reg (unsigned) > max goto label: gives the verifier reg's range */
static void clamp_or(struct cg *g, int reg, uint32_t max, int label)
{
	emit_jmp_imm(&g->e, BPF_JGT, reg, (int32_t)max, label);
}

/* reg = max(lo, min(reg, hi)), signed, hi and lo small */
static void clamp_range(struct cg *g, int reg, int32_t lo, int32_t hi)
{
	int ok_lo = emit_new_label(&g->e), ok_hi = emit_new_label(&g->e);

	emit_jmp_imm(&g->e, BPF_JSGE, reg, lo, ok_lo);
	emit_mov_imm(&g->e, reg, lo);
	emit_label(&g->e, ok_lo);
	emit_jmp_imm(&g->e, BPF_JSLE, reg, hi, ok_hi);
	emit_mov_imm(&g->e, reg, hi);
	emit_label(&g->e, ok_hi);
}

/* dst = byte at scratch offset off + idx; idx already clamped */
static void byte_at(struct cg *g, int dst, int idx, uint32_t off)
{
	if (dst != idx)
		emit_mov_reg(&g->e, dst, idx);
	emit_alu_reg(&g->e, BPF_ADD, dst, R9);
	emit_load(&g->e, 1, dst, dst, (int16_t)off);
}

static struct val str_temp(struct cg *g, const struct node *n, uint32_t bound)
{
	struct val v = { .str = true, .size = cg_round8(bound) };

	v.off = cg_temp_new(g, n, v.size);
	cg_zero_words(g, R9, v.off, v.size);
	return v;
}

/*
 * r0 = bpf_probe_read_kernel_str(r9 + doff + r_didx, r2, r3): the copy
 * primitive.  The caller has set r2 (size, clamped) and r3 (source), a
 * string in scratch: a copy of the program's own memory, which a replay
 * may run (g->own_reads, cg_replay_check()).
 */
static void read_str(struct cg *g, uint32_t doff)
{
	cg_scratch_ptr(g, R1, doff);
	emit_call(&g->e, BPF_FUNC_probe_read_kernel_str);
	g->own_reads++;
}

/* r3 = r9 + off + reg (a source address; no proof needed) */
static void src_at(struct cg *g, uint32_t off, int reg)
{
	emit_mov_reg(&g->e, R3, R9);
	emit_alu_reg(&g->e, BPF_ADD, R3, reg);
	emit_alu_imm(&g->e, BPF_ADD, R3, (int32_t)off);
}

/* r0 = strlen(v): the string copied onto itself, the helper counting */
static void str_len(struct cg *g, struct val v)
{
	emit_mov_imm(&g->e, R2, (int32_t)v.size);
	cg_scratch_ptr(g, R3, v.off);
	read_str(g, v.off);
	clamp_range(g, R0, 1, (int32_t)v.size);
	emit_alu_imm(&g->e, BPF_SUB, R0, 1);
}

/* Copy count bytes of string v from index r_idx (both in registers,
 * count >= 0) to a fresh string of the given bound. */
static void copy_part(struct cg *g, struct val v, struct val d, int r_idx,
		      int r_cnt, uint32_t bound)
{
	int skip = emit_new_label(&g->e);

	clamp_or(g, r_idx, v.size - 1, skip);
	clamp_range(g, r_cnt, 0, (int32_t)bound - 1);
	src_at(g, v.off, r_idx);
	emit_mov_reg(&g->e, R2, r_cnt);
	emit_alu_imm(&g->e, BPF_ADD, R2, 1);
	read_str(g, d.off);
	emit_label(&g->e, skip);
}

/* After a read of the address in slot: a negative r0 is a fault at that
 * address (never inside a loop: the clause is abandoned). */
static void fault_if_neg(struct cg *g, int16_t addr_slot)
{
	int ok = emit_new_label(&g->e);

	emit_jmp_imm(&g->e, BPF_JSGE, R0, 0, ok);
	cg_load_slot(g, R8, addr_slot);
	cg_fault(g, FLT_BADADDR, R8);
	emit_label(&g->e, ok);
}

/* ---- loops ---- */

/*
 * A loop is written once, its body between loop_begin and loop_end,
 * and runs on whichever the kernel has (kcaps.h):
 *
 * on the numeric iterator (6.4+), in place:
 *	bpf_iter_num_new(&it, 0, count)
 *   head:
 *	r0 = bpf_iter_num_next(&it); if (!r0) goto brk; r0 = *r0
 *	if (r0 >= count) goto brk
 *	body
 *	goto head
 *   brk:
 *	bpf_iter_num_destroy(&it)
 *
 * or as a bpf_loop callback (5.17+), the body cut out of the stream and
 * pasted after the program's exit (emit_cut): a callback has its own
 * stack frame, so the body may use registers r0-r5 and the scratch
 * cells only -- as on the iterator, whose calls clobber r0-r5 each
 * iteration -- and r9 comes back from the caller's stack through ctx:
 *	*(u64 *)(fp + slot) = r9
 *	bpf_loop(count, &cb, fp + slot, 0)
 *   ...
 *   cb(r1 index, r2 ctx):
 *	r9 = *(u64 *)(r2 + 0); r0 = r1
 *	if (r0 >= count) goto brk
 *	body
 *   head:
 *	return 0		next iteration
 *   brk:
 *	return 1		done
 * A loop inside a callback spills r9 in the callback's own frame, at its
 * top: the frames' stacks together must stay within 512 bytes.
 *
 * or, with neither (before 5.17), as a bounded loop in place, which the
 * verifier walks iteration by iteration (5.3+): the counter in a stack
 * slot, stored from a register so that the verifier keeps its value
 * (one stored as an immediate it forgets, before 6.3), and stepped
 * before the body, whose continue goes to head:
 *	r0 = 0; *(u64 *)(fp + it) = r0
 *   head:
 *	r0 = *(u64 *)(fp + it)
 *	if (r0 >= count) goto brk
 *	r1 = r0 + 1; *(u64 *)(fp + it) = r1
 *	body
 *	goto head
 *   brk:
 * Each iteration costs the verifier the body's instructions again: a
 * long loop over a large body may pass its limit of a million, and the
 * program is refused saying so.
 */
struct loop {
	int16_t it;	/* the struct bpf_iter_num on the stack */
	int head;	/* continue */
	int brk;	/* break: the iterator is destroyed there */
	int body;	/* callback: where its instructions start */
};

/* Whether loops are bpf_loop callbacks, or bounded loops in place: the
 * kernel is asked by the first program with a loop, not by every
 * program (kcaps.h). */
static bool loop_cb(void)
{
	return !kcaps_has(KCAP_ITER_NUM) && kcaps_has(KCAP_LOOP);
}

static bool loop_bounded(void)
{
	return !kcaps_has(KCAP_ITER_NUM) && !kcaps_has(KCAP_LOOP);
}

/* for (r0 = 0; r0 < count; r0++) { body } -- r0 is clamped for the body */
static void loop_begin(struct cg *g, const struct node *n, struct loop *l,
		       uint32_t count)
{
	l->head = emit_new_label(&g->e);
	l->brk = emit_new_label(&g->e);
	if (loop_cb()) {
		int16_t ctx = g->loop_depth ? -8 : cg_slot_new(g, n);
		int cb = emit_new_label(&g->e);

		emit_store(&g->e, 8, R10, ctx, R9);
		emit_mov_imm(&g->e, R1, (int32_t)count);
		emit_ld_func(&g->e, R2, cb);
		emit_mov_reg(&g->e, R3, R10);
		emit_alu_imm(&g->e, BPF_ADD, R3, ctx);
		emit_mov_imm(&g->e, R4, 0);
		emit_call(&g->e, BPF_FUNC_loop);
		l->body = g->e.n;
		g->loop_depth++;
		emit_label(&g->e, cb);
		emit_load(&g->e, 8, R9, R2, 0);
		emit_mov_reg(&g->e, R0, R1);
	} else if (loop_bounded()) {
		l->it = cg_slot_new(g, n);
		emit_mov_imm(&g->e, R0, 0);
		emit_store(&g->e, 8, R10, l->it, R0);
		emit_label(&g->e, l->head);
		emit_load(&g->e, 8, R0, R10, l->it);
		emit_jmp_imm(&g->e, BPF_JGE, R0, (int32_t)count, l->brk);
		emit_mov_reg(&g->e, R1, R0);
		emit_alu_imm(&g->e, BPF_ADD, R1, 1);
		emit_store(&g->e, 8, R10, l->it, R1);
		return;
	} else {
		l->it = cg_slot_new(g, n);
		cg_fp_ptr(g, R1, l->it);
		emit_mov_imm(&g->e, R2, 0);
		emit_mov_imm(&g->e, R3, (int32_t)count);
		kfunc_call(g, n, "bpf_iter_num_new");
		emit_label(&g->e, l->head);
		cg_fp_ptr(g, R1, l->it);
		kfunc_call(g, n, "bpf_iter_num_next");
		emit_jmp_imm(&g->e, BPF_JEQ, R0, 0, l->brk);
		emit_load(&g->e, 4, R0, R0, 0);
	}
	emit_jmp_imm(&g->e, BPF_JGE, R0, (int32_t)count, l->brk);
}

static void loop_end(struct cg *g, const struct node *n, struct loop *l)
{
	if (loop_cb()) {
		emit_label(&g->e, l->head);
		emit_mov_imm(&g->e, R0, 0);
		emit_exit(&g->e);
		emit_label(&g->e, l->brk);
		emit_mov_imm(&g->e, R0, 1);
		emit_exit(&g->e);
		g->loop_depth--;
		*ARENA_PUSH(g->a, g->loop_bodies, g->nloop_bodies,
			    g->loop_bodies_cap) = emit_cut(&g->e, l->body);
		return;
	}
	emit_ja(&g->e, l->head);
	emit_label(&g->e, l->brk);
	if (loop_bounded())
		return;
	cg_fp_ptr(g, R1, l->it);
	kfunc_call(g, n, "bpf_iter_num_destroy");
}

int cg_loop_callbacks(struct cg *g, struct spec_subprog **subs)
{
	*subs = arena_alloc(g->a, sizeof(**subs) * (size_t)(g->nloop_bodies + 1));
	for (int i = 0; i < g->nloop_bodies; i++) {
		char *name = arena_alloc(g->a, 24);

		snprintf(name, 24, "dscope_loop%d", i);
		(*subs)[i] = (struct spec_subprog){
			(uint32_t)emit_paste(&g->e, &g->loop_bodies[i]), name };
	}
	return g->nloop_bodies;
}

/* ---- arguments ---- */

/* A string argument; a char * (wrapped by sema in N_STRINGOF) is read
 * from kernel memory into a string of the wrapper's bound. */
static struct val str_arg(struct cg *g, struct node *a)
{
	if (a->kind != N_STRINGOF || a->a->type.kind == T_STRING)
		return cg_expr(g, a);
	struct val p = cg_expr(g, a->a);
	struct val v = str_temp(g, a, a->type.size);

	emit_mov_imm(&g->e, R2, (int32_t)a->type.size);
	cg_load_slot(g, R3, p.slot);
	cg_scratch_ptr(g, R1, v.off);	/* kernel memory: not read_str's */
	emit_call(&g->e, BPF_FUNC_probe_read_kernel_str);
	fault_if_neg(g, p.slot);
	return v;
}

static struct val int_result(struct cg *g, const struct node *n, int reg)
{
	int16_t slot = cg_slot_new(g, n);

	cg_normalize(g, reg, &n->type);
	cg_store_slot(g, slot, reg);
	return cg_int_val(slot);
}

/* ---- strings ---- */

static struct val do_strlen(struct cg *g, struct node *n)
{
	struct val s = str_arg(g, n->args.v[0]);

	str_len(g, s);
	return int_result(g, n, R0);
}

/*
 *	d = zeroed temp of a.size + b.size
 *	r0 = probe_read_kernel_str(d, a.size, a) - 1	strlen(a)
 *	probe_read_kernel_str(d + r0, b.size, b)
 *	d[bound - 1] = 0				truncate
 */
static struct val do_strjoin(struct cg *g, struct node *n)
{
	struct val a = str_arg(g, n->args.v[0]), b = str_arg(g, n->args.v[1]);
	uint32_t bound = n->type.size;
	struct val d = str_temp(g, n, a.size + b.size);

	emit_mov_imm(&g->e, R2, (int32_t)a.size);
	cg_scratch_ptr(g, R3, a.off);
	read_str(g, d.off);
	clamp_range(g, R0, 1, (int32_t)a.size);
	emit_alu_imm(&g->e, BPF_SUB, R0, 1);
	emit_mov_reg(&g->e, R1, R9);
	emit_alu_reg(&g->e, BPF_ADD, R1, R0);
	emit_alu_imm(&g->e, BPF_ADD, R1, (int32_t)d.off);
	emit_mov_imm(&g->e, R2, (int32_t)b.size);
	cg_scratch_ptr(g, R3, b.off);
	emit_call(&g->e, BPF_FUNC_probe_read_kernel_str);
	g->own_reads++;
	if (bound < a.size + b.size - 1)
		for (uint32_t i = bound - 1; i < cg_round8(bound); i++)
			emit_store_imm(&g->e, 1, R9, (int16_t)(d.off + i), 0);
	d.size = cg_round8(bound);
	return d;
}

/*
 * substr(s, index [, count]), with DTrace's rules for negative values:
 *
 *	if (index < 0) index += len;
 *	if (index < 0 && index + count > 0) { count += index; index = 0; }
 *	if (index >= len || index < 0) count = 0;
 *	else if (count < 0) count += len - index;
 *	else if (index + count > size) count = size - index;
 *
 * r4 = len, r5 = index, r8 = count; copy count bytes from s + index.
 * No string is longer than strsize, so the size in these rules is any
 * bound at least as large: the copy stops at the NUL or the result's
 * bound, whichever comes first.
 */
static struct val do_substr(struct cg *g, struct node *n)
{
	struct val s = str_arg(g, n->args.v[0]);
	struct val ix = cg_expr(g, n->args.v[1]);
	struct val cnt = n->args.n > 2 ? cg_expr(g, n->args.v[2]) : ix;
	int32_t size = 1 << 30;	/* strsize, for rules that cannot bind */
	struct val d = str_temp(g, n, n->type.size);
	int l1 = emit_new_label(&g->e), l2 = emit_new_label(&g->e);
	int l3 = emit_new_label(&g->e), copy = emit_new_label(&g->e);
	int done = emit_new_label(&g->e);

	str_len(g, s);
	emit_mov_reg(&g->e, R4, R0);
	cg_load_slot(g, R5, ix.slot);
	if (n->args.n > 2)
		cg_load_slot(g, R8, cnt.slot);
	else
		emit_mov_imm(&g->e, R8, size);
	emit_jmp_imm(&g->e, BPF_JSGE, R5, 0, l1);
	emit_alu_reg(&g->e, BPF_ADD, R5, R4);
	emit_label(&g->e, l1);
	emit_jmp_imm(&g->e, BPF_JSGE, R5, 0, l2);
	emit_mov_reg(&g->e, R1, R5);
	emit_alu_reg(&g->e, BPF_ADD, R1, R8);
	emit_jmp_imm(&g->e, BPF_JSLE, R1, 0, l2);
	emit_alu_reg(&g->e, BPF_ADD, R8, R5);
	emit_mov_imm(&g->e, R5, 0);
	emit_label(&g->e, l2);
	emit_jmp_reg(&g->e, BPF_JSGE, R5, R4, done);
	emit_jmp_imm(&g->e, BPF_JSLT, R5, 0, done);
	emit_jmp_imm(&g->e, BPF_JSGE, R8, 0, l3);
	emit_alu_reg(&g->e, BPF_ADD, R8, R4);
	emit_alu_reg(&g->e, BPF_SUB, R8, R5);
	emit_ja(&g->e, copy);
	emit_label(&g->e, l3);
	emit_mov_reg(&g->e, R1, R5);
	emit_alu_reg(&g->e, BPF_ADD, R1, R8);
	emit_jmp_imm(&g->e, BPF_JSLE, R1, size, copy);
	emit_mov_imm(&g->e, R8, size);
	emit_alu_reg(&g->e, BPF_SUB, R8, R5);
	emit_label(&g->e, copy);
	emit_jmp_imm(&g->e, BPF_JSLE, R8, 0, done);
	copy_part(g, s, d, R5, R8, n->type.size);
	emit_label(&g->e, done);
	return d;
}

/*
 * index(s, t [, pos]) and rindex, with DTrace's (Perl's) rules, and the
 * search that strstr() shares.  Leaves the position or -1 in cell res.
 * Candidates run from p0 by step +1 or -1 while lo <= p <= hi; a
 * candidate matches when its next strlen(t) bytes are t's.
 *
 * cells: 0 len(s), 1 len(t), 2 p0, 3 hi, 4 p, 5 matched, 6 res
 */
enum { C_LS, C_LT, C_P0, C_HI, C_P, C_MATCH, C_RES, C_COUNT };

static void search(struct cg *g, struct node *n, struct val s, struct val t,
		   const struct val *pos, bool reverse, uint32_t c)
{
	struct loop outer, inner;
	int go = emit_new_label(&g->e), done = emit_new_label(&g->e);
	int nomatch = emit_new_label(&g->e), next = emit_new_label(&g->e);

#define CELL(i) (c + 8 * (i))
	cell_set(g, CELL(C_RES), -1);
	str_len(g, s);
	cell_store(g, CELL(C_LS), R0);
	str_len(g, t);
	cell_store(g, CELL(C_LT), R0);
	cell_load(g, R4, CELL(C_LS));
	cell_load(g, R5, CELL(C_LT));
	/* both empty: 0 */
	emit_mov_reg(&g->e, R1, R4);
	emit_alu_reg(&g->e, BPF_OR, R1, R5);
	emit_jmp_imm(&g->e, BPF_JNE, R1, 0, go);
	cell_set(g, CELL(C_RES), 0);
	emit_ja(&g->e, done);
	emit_label(&g->e, go);
	/* p0: 0 (index) or len(s) (rindex), or the position given */
	if (reverse)
		emit_mov_reg(&g->e, R2, R4);
	else
		emit_mov_imm(&g->e, R2, 0);
	if (pos) {
		int ok = emit_new_label(&g->e), nonneg = emit_new_label(&g->e);

		cg_load_slot(g, R2, pos->slot);
		if (reverse) {
			/* pos < 0: 0 if t is empty, else not found */
			emit_jmp_imm(&g->e, BPF_JSGE, R2, 0, nonneg);
			emit_jmp_imm(&g->e, BPF_JNE, R5, 0, done);
			cell_set(g, CELL(C_RES), 0);
			emit_ja(&g->e, done);
			emit_label(&g->e, nonneg);
			emit_jmp_reg(&g->e, BPF_JSLE, R2, R4, ok);
			emit_mov_reg(&g->e, R2, R4);
		} else {
			/* pos >= len: len if t is empty, else not found */
			emit_jmp_imm(&g->e, BPF_JSGE, R2, 0, nonneg);
			emit_mov_imm(&g->e, R2, 0);
			emit_label(&g->e, nonneg);
			emit_jmp_reg(&g->e, BPF_JSLT, R2, R4, ok);
			emit_jmp_imm(&g->e, BPF_JNE, R5, 0, done);
			cell_store(g, CELL(C_RES), R4);
			emit_ja(&g->e, done);
		}
		emit_label(&g->e, ok);
	}
	/* hi = len(s) - len(t), and below len(s) for index() */
	emit_mov_reg(&g->e, R3, R4);
	emit_alu_reg(&g->e, BPF_SUB, R3, R5);
	if (reverse) {
		int ok = emit_new_label(&g->e);

		emit_jmp_reg(&g->e, BPF_JSLE, R2, R3, ok);
		emit_mov_reg(&g->e, R2, R3);		/* p0 = min(p0, hi) */
		emit_label(&g->e, ok);
	} else {
		int ok = emit_new_label(&g->e);

		emit_jmp_reg(&g->e, BPF_JSLT, R3, R4, ok);
		emit_mov_reg(&g->e, R3, R4);
		emit_alu_imm(&g->e, BPF_SUB, R3, 1);
		emit_label(&g->e, ok);
	}
	cell_store(g, CELL(C_P0), R2);
	cell_store(g, CELL(C_HI), R3);

	loop_begin(g, n, &outer, s.size);
	cell_load(g, R1, CELL(C_P0));
	emit_alu_reg(&g->e, reverse ? BPF_SUB : BPF_ADD, R1, R0);
	if (reverse) {
		emit_jmp_imm(&g->e, BPF_JSLT, R1, 0, outer.brk);
	} else {
		cell_load(g, R2, CELL(C_HI));
		emit_jmp_reg(&g->e, BPF_JSGT, R1, R2, outer.brk);
	}
	cell_store(g, CELL(C_P), R1);
	cell_set(g, CELL(C_MATCH), 0);

	loop_begin(g, n, &inner, t.size);
	cell_load(g, R1, CELL(C_LT));
	emit_jmp_reg(&g->e, BPF_JLT, R0, R1, next);
	cell_set(g, CELL(C_MATCH), 1);
	emit_ja(&g->e, inner.brk);
	emit_label(&g->e, next);
	cell_load(g, R1, CELL(C_P));
	emit_alu_reg(&g->e, BPF_ADD, R1, R0);
	clamp_or(g, R1, s.size - 1, inner.brk);
	byte_at(g, R1, R1, s.off);
	byte_at(g, R2, R0, t.off);
	emit_jmp_reg(&g->e, BPF_JNE, R1, R2, inner.brk);
	loop_end(g, n, &inner);

	cell_load(g, R1, CELL(C_MATCH));
	emit_jmp_imm(&g->e, BPF_JEQ, R1, 0, nomatch);
	cell_load(g, R1, CELL(C_P));
	cell_store(g, CELL(C_RES), R1);
	emit_ja(&g->e, outer.brk);
	emit_label(&g->e, nomatch);
	loop_end(g, n, &outer);
	emit_label(&g->e, done);
#undef CELL
}

static struct val do_index(struct cg *g, struct node *n)
{
	struct val s = str_arg(g, n->args.v[0]), t = str_arg(g, n->args.v[1]);
	struct val pos = n->args.n > 2 ? cg_expr(g, n->args.v[2]) : s;
	uint32_t c = cells_new(g, n, C_COUNT);

	search(g, n, s, t, n->args.n > 2 ? &pos : NULL,
	       strcmp(n->str, "rindex") == 0, c);
	cell_load(g, R0, c + 8 * C_RES);
	return int_result(g, n, R0);
}

/* The rest of s from the position in cell `at` (or NULL when it is < 0):
 * strstr, strchr and strrchr. */
static struct val suffix(struct cg *g, struct node *n, struct val s,
			 uint32_t at)
{
	struct val d = str_temp(g, n, n->type.size);
	int none = emit_new_label(&g->e);

	int done = emit_new_label(&g->e);

	cell_load(g, R5, at);
	emit_jmp_imm(&g->e, BPF_JSLT, R5, 0, none);
	emit_mov_imm(&g->e, R8, (int32_t)n->type.size - 1);
	copy_part(g, s, d, R5, R8, n->type.size);
	emit_ja(&g->e, done);
	emit_label(&g->e, none);
	cg_str_set_null(g, d.off);
	emit_label(&g->e, done);
	return d;
}

static struct val do_strstr(struct cg *g, struct node *n)
{
	struct val s = str_arg(g, n->args.v[0]), t = str_arg(g, n->args.v[1]);
	uint32_t c = cells_new(g, n, C_COUNT);

	search(g, n, s, t, NULL, false, c);
	return suffix(g, n, s, c + 8 * C_RES);
}

/*
 * strchr(s, c) / strrchr(s, c): the first (last) c in s, and what
 * follows it.  cells: 0 len, 1 c, 2 position found
 */
static struct val do_strchr(struct cg *g, struct node *n)
{
	struct val s = str_arg(g, n->args.v[0]);
	struct val ch = cg_expr(g, n->args.v[1]);
	bool reverse = strcmp(n->str, "strrchr") == 0;
	uint32_t c = cells_new(g, n, 3);
	struct loop l;
	int next = emit_new_label(&g->e);

	cell_set(g, c + 16, -1);
	str_len(g, s);
	cell_store(g, c, R0);
	cg_load_slot(g, R0, ch.slot);
	emit_alu_imm(&g->e, BPF_AND, R0, 0xff);
	cell_store(g, c + 8, R0);
	loop_begin(g, n, &l, s.size);
	cell_load(g, R1, c);
	emit_jmp_reg(&g->e, BPF_JGE, R0, R1, l.brk);		/* k >= len */
	if (reverse) {						/* p = len - 1 - k */
		emit_alu_imm(&g->e, BPF_SUB, R1, 1);
		emit_alu_reg(&g->e, BPF_SUB, R1, R0);
		emit_mov_reg(&g->e, R0, R1);
	}
	clamp_or(g, R0, s.size - 1, l.brk);
	byte_at(g, R1, R0, s.off);
	cell_load(g, R2, c + 8);
	emit_jmp_reg(&g->e, BPF_JNE, R1, R2, next);
	cell_store(g, c + 16, R0);
	emit_ja(&g->e, l.brk);
	emit_label(&g->e, next);
	loop_end(g, n, &l);
	return suffix(g, n, s, c + 16);
}

/*
 * strtok(s, delims), as DTrace: the token of s that starts at its first
 * byte not in delims and ends before the next byte that is; NULL when
 * there is none.  strtok(NULL, delims) goes on where the firing's last
 * strtok stopped, in that call's string, in this clause or an earlier
 * one: the program keeps a copy of it (state at strtok_off,
 * cg_strtok_reserve), so that s may change between the calls.  pos < 0: nothing to go on from, a fault at address 0 as in
 * DTrace (whose saved pointer is then NULL).  An s that is NULL when the
 * clause runs (strstr()'s no-match) is NULL too: DTrace's strtok tests the
 * address, not how it was written.
 *
 *	if (s given and not NULL) { buf = s; pos = 0 }
 *	else if (pos < 0) fault(BADADDR, 0)
 *	map = a bit for each byte of delims
 *	for (i = pos; buf[i] && map[buf[i]]; i++) ;
 *	if (!buf[i]) { pos = -1; return NULL }
 *	for (j = i; buf[j] && !map[buf[j]]; j++) ;
 *	pos = j; return buf[i, j)
 *
 * cells: 0 i, 1 j
 */
#define TOKMAP_SIZE 32	/* 256 bits */

/* reg = map bit of byte c (in reg c, 0..255): (map[c >> 3] >> (c & 7)) & 1;
 * clobbers r1, r2 */
static void tokmap_bit(struct cg *g, int reg, int c, uint32_t map)
{
	emit_mov_reg(&g->e, R1, c);
	emit_alu_imm(&g->e, BPF_RSH, R1, 3);
	byte_at(g, R2, R1, map);
	emit_mov_reg(&g->e, R1, c);
	emit_alu_imm(&g->e, BPF_AND, R1, 7);
	emit_alu_reg(&g->e, BPF_RSH, R2, R1);
	emit_alu_imm(&g->e, BPF_AND, R2, 1);
	if (reg != R2)
		emit_mov_reg(&g->e, reg, R2);
}

/* map = a bit for each byte of delims (a loop to its NUL):
 *	map[c >> 3] |= 1 << (c & 7) */
static void tokmap_fill(struct cg *g, struct node *n, struct val delims,
			uint32_t map)
{
	struct loop l;

	cg_zero_words(g, R9, map, TOKMAP_SIZE);
	loop_begin(g, n, &l, delims.size);
	clamp_or(g, R0, delims.size - 1, l.brk);
	byte_at(g, R3, R0, delims.off);				/* r3 = c */
	emit_jmp_imm(&g->e, BPF_JEQ, R3, 0, l.brk);
	emit_mov_reg(&g->e, R4, R3);
	emit_alu_imm(&g->e, BPF_RSH, R4, 3);			/* r4 = c >> 3 */
	byte_at(g, R2, R4, map);
	emit_mov_imm(&g->e, R1, 1);
	emit_alu_imm(&g->e, BPF_AND, R3, 7);
	emit_alu_reg(&g->e, BPF_LSH, R1, R3);
	emit_alu_reg(&g->e, BPF_OR, R2, R1);
	emit_alu_reg(&g->e, BPF_ADD, R4, R9);
	emit_store(&g->e, 1, R4, (int16_t)map, R2);
	loop_end(g, n, &l);
}

/* cell = the first position from cell's own whose byte of buf is NUL or
 * has map bit `in` (0: stop at a delimiter; 1: at a non-delimiter) */
static void tok_scan(struct cg *g, struct node *n, struct val buf,
		     uint32_t map, uint32_t cell, int stop_bit)
{
	struct loop l;
	uint32_t from = cells_new(g, n, 1);

	cell_load(g, R1, cell);
	cell_store(g, from, R1);
	loop_begin(g, n, &l, buf.size);
	cell_load(g, R3, from);
	emit_alu_reg(&g->e, BPF_ADD, R3, R0);			/* i = from + k */
	clamp_or(g, R3, buf.size - 1, l.brk);
	cell_store(g, cell, R3);
	byte_at(g, R4, R3, buf.off);
	emit_jmp_imm(&g->e, BPF_JEQ, R4, 0, l.brk);
	tokmap_bit(g, R2, R4, map);
	emit_jmp_imm(&g->e, BPF_JEQ, R2, stop_bit, l.brk);
	loop_end(g, n, &l);
}

/* strtok(NULL, d): on from the saved position, or a fault at 0 */
static void go_on_or_fault(struct cg *g, int16_t pos, int go)
{
	emit_load(&g->e, 8, R1, R9, pos);
	emit_jmp_imm(&g->e, BPF_JSGE, R1, 0, go);
	emit_mov_imm(&g->e, R8, 0);
	cg_fault(g, FLT_BADADDR, R8);
}

static struct val do_strtok(struct cg *g, struct node *n)
{
	struct node *a0 = n->args.v[0];
	struct val buf = { .str = true, .off = g->strtok_off + 8,
			   .size = cg_round8(n->type.size) };
	struct val s = a0->kind == N_INT ? buf : str_arg(g, a0);
	struct val delims = str_arg(g, n->args.v[1]);
	struct val d = str_temp(g, n, n->type.size);
	uint32_t map = cg_temp_new(g, n, TOKMAP_SIZE), c = cells_new(g, n, 2);
	int16_t pos = (int16_t)g->strtok_off;
	int go = emit_new_label(&g->e), null = emit_new_label(&g->e);
	int done = emit_new_label(&g->e);

	if (!g->strtok_off)	/* cg_strtok_reserve did not see this call */
		diag_fail(g->d, n->line, n->col, "D_INTERNAL",
			  "strtok( ) outside the program's clauses");

	if (a0->kind != N_INT) {
		int given = emit_new_label(&g->e);

		emit_load(&g->e, 2, R0, R9, (int16_t)s.off);
		emit_jmp_imm(&g->e, BPF_JNE, R0, STR_NULL_MARK << 8, given);
		go_on_or_fault(g, pos, go);
		emit_label(&g->e, given);
		emit_mov_imm(&g->e, R2, (int32_t)(s.size < buf.size ? s.size
								 : buf.size));
		cg_scratch_ptr(g, R3, s.off);
		read_str(g, buf.off);
		emit_store_imm(&g->e, 8, R9, pos, 0);
	} else {
		go_on_or_fault(g, pos, go);
	}
	emit_label(&g->e, go);
	tokmap_fill(g, n, delims, map);
	emit_load(&g->e, 8, R1, R9, pos);
	cell_store(g, c, R1);
	tok_scan(g, n, buf, map, c, 0);				/* i */
	cell_load(g, R1, c);
	clamp_or(g, R1, buf.size - 1, null);
	byte_at(g, R1, R1, buf.off);
	emit_jmp_imm(&g->e, BPF_JEQ, R1, 0, null);
	cell_load(g, R1, c);
	cell_store(g, c + 8, R1);
	tok_scan(g, n, buf, map, c + 8, 1);			/* j */
	cell_load(g, R5, c);
	cell_load(g, R8, c + 8);
	emit_store(&g->e, 8, R9, pos, R8);
	emit_alu_reg(&g->e, BPF_SUB, R8, R5);
	copy_part(g, buf, d, R5, R8, n->type.size);
	emit_ja(&g->e, done);
	emit_label(&g->e, null);
	emit_store_imm(&g->e, 8, R9, pos, -1);
	cg_str_set_null(g, d.off);
	emit_label(&g->e, done);
	return d;
}

/* A search for a call: inline definitions are shared by every use (an
 * inline may use another twice), so each is looked into once. */
struct call_search {
	struct arena *a;
	const char *name;
	const struct node **seen;	/* inline definitions looked into */
	int nseen, cap;
};

static const struct node *find_call(struct call_search *cs,
				    const struct node *n);

static const struct node *list_find_call(struct call_search *cs,
					 const struct node_list *l)
{
	const struct node *f = NULL;

	for (int i = 0; i < l->n && !f; i++)
		f = find_call(cs, l->v[i]);
	return f;
}

static bool seen_inline(struct call_search *cs, const struct node *def)
{
	for (int i = 0; i < cs->nseen; i++)
		if (cs->seen[i] == def)
			return true;
	*ARENA_PUSH(cs->a, cs->seen, cs->nseen, cs->cap) = def;
	return false;
}

/* A call of subroutine cs->name in the tree at n, or NULL */
static const struct node *find_call(struct call_search *cs,
				    const struct node *n)
{
	const struct node *f = NULL;

	if (!n)
		return NULL;
	if (n->kind == N_CALL && n->str && strcmp(n->str, cs->name) == 0)
		return n;
	if (n->kind == N_IDENT && n->symkind == SYM_INLINE)
		return seen_inline(cs, n->a) ? NULL : find_call(cs, n->a);
	const struct node *kids[] = { n->a, n->b, n->c, n->call };

	for (size_t i = 0; i < sizeof(kids) / sizeof(kids[0]) && !f; i++)
		f = find_call(cs, kids[i]);
	if (!f)
		f = list_find_call(cs, &n->args);
	if (!f)
		f = list_find_call(cs, &n->body);
	if (!f)
		f = list_find_call(cs, &n->else_body);
	return f;
}

bool cg_clause_calls(struct cg *g, const struct clause *c, const char *name)
{
	struct call_search cs = { .a = g->a, .name = name };

	return find_call(&cs, c->pred) || list_find_call(&cs, &c->body);
}

/*
 * The state: the position, then a string of strtok's bound (strsize),
 * one for the program's clauses: DTrace keeps the saved pointer in the
 * firing's machine state (dtrace_probe clears mstate.dtms_strtok once,
 * before the first enabling), so strtok(NULL, d) goes on from where an
 * earlier clause of the same firing stopped.
 */
void cg_strtok_reserve(struct cg *g, const struct cg_clause *clauses,
		       int nclauses)
{
	struct call_search cs = { .a = g->a, .name = "strtok" };

	g->strtok_off = 0;
	g->strtok_first = NULL;
	for (int i = 0; i < nclauses && !g->strtok_first; i++) {
		const struct clause *c = clauses[i].clause;
		const struct node *call = find_call(&cs, c->pred);

		if (!call)
			call = list_find_call(&cs, &c->body);
		if (!call)
			continue;
		g->tmp = g->tmp_base;
		g->strtok_off = cg_temp_new(g, call, 8 + call->type.size);
		g->tmp_base = g->tmp;
		g->strtok_first = &clauses[i];
	}
}

/*
 * basename(s) and dirname(s), as DTrace: scanning back from the end,
 * lastbase is the last non-slash, firstbase the first character after
 * the slash before it, lastdir the last non-slash before that.
 *
 * cells: 0 len, 1 phase, 2 lastbase, 3 firstbase, 4 lastdir
 */
static void put_const(struct cg *g, struct val d, const char *s)
{
	for (size_t i = 0; s[i]; i++)
		emit_store_imm(&g->e, 1, R9, (int16_t)(d.off + i), s[i]);
}

static struct val do_basename(struct cg *g, struct node *n)
{
	struct val s = str_arg(g, n->args.v[0]);
	bool dir = strcmp(n->str, "dirname") == 0;
	uint32_t c = cells_new(g, n, 5);
	struct val d = str_temp(g, n, n->type.size);
	struct loop l;
	int nonempty = emit_new_label(&g->e), done = emit_new_label(&g->e);
	int p1 = emit_new_label(&g->e), p2 = emit_new_label(&g->e);
	int cont = emit_new_label(&g->e);
	int slashes = emit_new_label(&g->e);
	int dot = emit_new_label(&g->e);

	str_len(g, s);
	emit_jmp_imm(&g->e, BPF_JNE, R0, 0, nonempty);
	put_const(g, d, ".");
	emit_ja(&g->e, done);
	emit_label(&g->e, nonempty);
	cell_store(g, c, R0);
	cell_set(g, c + 8, 0);
	cell_set(g, c + 16, -1);
	cell_set(g, c + 24, -1);
	cell_set(g, c + 32, -1);

	loop_begin(g, n, &l, s.size);
	cell_load(g, R1, c);
	emit_jmp_reg(&g->e, BPF_JGE, R0, R1, l.brk);
	emit_alu_imm(&g->e, BPF_SUB, R1, 1);			/* i = len-1-k */
	emit_alu_reg(&g->e, BPF_SUB, R1, R0);
	clamp_or(g, R1, s.size - 1, l.brk);
	emit_mov_reg(&g->e, R3, R1);
	byte_at(g, R2, R1, s.off);				/* r2 = s[i] */
	cell_load(g, R4, c + 8);				/* phase */
	emit_jmp_imm(&g->e, BPF_JEQ, R4, 1, p1);
	emit_jmp_imm(&g->e, BPF_JEQ, R4, 2, p2);
	emit_jmp_imm(&g->e, BPF_JEQ, R2, '/', l.head);		/* phase 0 */
	cell_store(g, c + 16, R3);
	cell_set(g, c + 8, 1);
	emit_ja(&g->e, l.head);
	emit_label(&g->e, p1);
	emit_jmp_imm(&g->e, BPF_JNE, R2, '/', l.head);
	emit_alu_imm(&g->e, BPF_ADD, R3, 1);
	cell_store(g, c + 24, R3);
	cell_set(g, c + 8, 2);
	emit_ja(&g->e, l.head);
	emit_label(&g->e, p2);
	emit_jmp_imm(&g->e, BPF_JEQ, R2, '/', cont);
	cell_store(g, c + 32, R3);
	emit_ja(&g->e, l.brk);
	emit_label(&g->e, cont);
	loop_end(g, n, &l);

	/* r5 = start, r8 = end (inclusive) */
	cell_load(g, R1, c + 16);
	emit_jmp_imm(&g->e, BPF_JSLT, R1, 0, slashes);
	cell_load(g, R2, c + 24);
	if (dir) {
		int haveslash = emit_new_label(&g->e);

		emit_jmp_imm(&g->e, BPF_JSLT, R2, 0, dot);
		emit_mov_imm(&g->e, R5, 0);
		cell_load(g, R8, c + 32);
		emit_jmp_imm(&g->e, BPF_JSGE, R8, 0, haveslash);
		emit_mov_imm(&g->e, R8, 0);
		emit_label(&g->e, haveslash);
	} else {
		int ok = emit_new_label(&g->e);

		emit_jmp_imm(&g->e, BPF_JSGE, R2, 0, ok);
		emit_mov_imm(&g->e, R2, 0);
		emit_label(&g->e, ok);
		emit_mov_reg(&g->e, R5, R2);
		emit_mov_reg(&g->e, R8, R1);
	}
	emit_alu_reg(&g->e, BPF_SUB, R8, R5);			/* count */
	emit_alu_imm(&g->e, BPF_ADD, R8, 1);
	copy_part(g, s, d, R5, R8, n->type.size);
	emit_ja(&g->e, done);
	emit_label(&g->e, slashes);				/* all slashes */
	put_const(g, d, "/");
	if (dir) {
		emit_ja(&g->e, done);
		emit_label(&g->e, dot);
		put_const(g, d, ".");
	}
	emit_label(&g->e, done);
	return d;
}

/*
 * cleanpath(s): the path with empty, "." and "x/.." elements removed, as
 * Go's path.Clean (which is what dtrace(1) prints), except that "" stays
 * "".  One loop of small steps, each of one of three kinds:
 *
 *	SCAN  at s[r]: skip a '/' or a "." element; for "..", drop the last
 *	      element written (then BACK) or write ".." when there is none;
 *	      else start an element (a '/' first unless at the start): COPY
 *	COPY  one byte of the element from s[r] to out[w]
 *	BACK  w-- until out[w] is '/' or nothing more may be dropped
 *
 * out is a work buffer; the result is copied from it, w bytes.
 * cells: 0 n, 1 r, 2 w, 3 dotdot (out[0, dotdot) must stay), 4 rooted,
 * 5 step kind
 */
enum { CP_N, CP_R, CP_W, CP_DOTDOT, CP_ROOTED, CP_KIND, CP_COUNT };
enum { CP_SCAN, CP_COPY, CP_BACK };

/* out[w++] = reg (or imm when reg < 0) */
static void out_put(struct cg *g, uint32_t c, struct val out, int reg,
		    int32_t imm, int skip)
{
	cell_load(g, R4, c + 8 * CP_W);
	clamp_or(g, R4, out.size - 1, skip);
	emit_mov_reg(&g->e, R5, R4);
	emit_alu_reg(&g->e, BPF_ADD, R5, R9);
	if (reg >= 0)
		emit_store(&g->e, 1, R5, (int16_t)out.off, reg);
	else
		emit_store_imm(&g->e, 1, R5, (int16_t)out.off, imm);
	emit_alu_imm(&g->e, BPF_ADD, R4, 1);
	cell_store(g, c + 8 * CP_W, R4);
}

/* reg = s[cell r + k], 0 past the end; clobbers r1 */
static void path_byte(struct cg *g, uint32_t c, struct val s, int reg, int k,
		      int skip)
{
	cell_load(g, reg, c + 8 * CP_R);
	if (k)
		emit_alu_imm(&g->e, BPF_ADD, reg, k);
	clamp_or(g, reg, s.size - 1, skip);
	byte_at(g, reg, reg, s.off);
}

static void cell_add(struct cg *g, uint32_t cell, int32_t k)
{
	cell_load(g, R1, cell);
	emit_alu_imm(&g->e, BPF_ADD, R1, k);
	cell_store(g, cell, R1);
}

static struct val do_cleanpath(struct cg *g, struct node *n)
{
	struct val s = str_arg(g, n->args.v[0]);
	struct val d = str_temp(g, n, n->type.size);
	struct val out = { .str = true, .size = s.size + 8 };
	uint32_t c = cells_new(g, n, CP_COUNT);
	struct loop l;
	int done = emit_new_label(&g->e), rel = emit_new_label(&g->e);
	int copy = emit_new_label(&g->e), back = emit_new_label(&g->e);
	int dot1 = emit_new_label(&g->e), elem = emit_new_label(&g->e);
	int noslash = emit_new_label(&g->e), to_scan = emit_new_label(&g->e);
	int notempty = emit_new_label(&g->e);

#define CP(i) (c + 8 * (i))
	out.off = cg_temp_new(g, n, out.size);
	str_len(g, s);
	emit_jmp_imm(&g->e, BPF_JEQ, R0, 0, done);
	cell_store(g, CP(CP_N), R0);
	for (int i = CP_R; i < CP_COUNT; i++)
		cell_set(g, CP(i), 0);
	emit_load(&g->e, 1, R1, R9, (int16_t)s.off);
	emit_jmp_imm(&g->e, BPF_JNE, R1, '/', rel);
	emit_store_imm(&g->e, 1, R9, (int16_t)out.off, '/');
	for (int i = CP_R; i <= CP_ROOTED; i++)
		cell_set(g, CP(i), 1);
	emit_label(&g->e, rel);

	loop_begin(g, n, &l, 4 * s.size + 8);
	cell_load(g, R1, CP(CP_KIND));
	emit_jmp_imm(&g->e, BPF_JEQ, R1, CP_COPY, copy);
	emit_jmp_imm(&g->e, BPF_JEQ, R1, CP_BACK, back);
	/* SCAN */
	cell_load(g, R1, CP(CP_R));
	cell_load(g, R2, CP(CP_N));
	emit_jmp_reg(&g->e, BPF_JGE, R1, R2, l.brk);
	path_byte(g, c, s, R2, 0, l.brk);
	emit_jmp_imm(&g->e, BPF_JNE, R2, '/', dot1);
	cell_add(g, CP(CP_R), 1);				/* "/" */
	emit_ja(&g->e, l.head);
	emit_label(&g->e, dot1);
	emit_jmp_imm(&g->e, BPF_JNE, R2, '.', elem);
	path_byte(g, c, s, R2, 1, l.brk);
	int dot2 = emit_new_label(&g->e), one = emit_new_label(&g->e);

	emit_jmp_imm(&g->e, BPF_JEQ, R2, 0, one);
	emit_jmp_imm(&g->e, BPF_JNE, R2, '/', dot2);
	emit_label(&g->e, one);
	cell_add(g, CP(CP_R), 1);				/* "." */
	emit_ja(&g->e, l.head);
	emit_label(&g->e, dot2);
	emit_jmp_imm(&g->e, BPF_JNE, R2, '.', elem);
	path_byte(g, c, s, R2, 2, l.brk);
	int two = emit_new_label(&g->e), keep = emit_new_label(&g->e);

	emit_jmp_imm(&g->e, BPF_JEQ, R2, 0, two);
	emit_jmp_imm(&g->e, BPF_JNE, R2, '/', elem);
	emit_label(&g->e, two);					/* ".." */
	cell_add(g, CP(CP_R), 2);
	cell_load(g, R1, CP(CP_W));
	cell_load(g, R2, CP(CP_DOTDOT));
	emit_jmp_reg(&g->e, BPF_JLE, R1, R2, keep);
	emit_alu_imm(&g->e, BPF_SUB, R1, 1);
	cell_store(g, CP(CP_W), R1);
	cell_set(g, CP(CP_KIND), CP_BACK);
	emit_ja(&g->e, l.head);
	emit_label(&g->e, keep);
	cell_load(g, R3, CP(CP_ROOTED));
	emit_jmp_imm(&g->e, BPF_JNE, R3, 0, l.head);
	emit_jmp_imm(&g->e, BPF_JEQ, R1, 0, noslash);
	out_put(g, c, out, -1, '/', l.brk);
	emit_label(&g->e, noslash);
	out_put(g, c, out, -1, '.', l.brk);
	out_put(g, c, out, -1, '.', l.brk);
	cell_load(g, R1, CP(CP_W));
	cell_store(g, CP(CP_DOTDOT), R1);
	emit_ja(&g->e, l.head);
	emit_label(&g->e, elem);		/* an element: '/' unless first */
	cell_load(g, R1, CP(CP_W));
	cell_load(g, R3, CP(CP_ROOTED));
	emit_alu_reg(&g->e, BPF_SUB, R1, R3);	/* w - rooted: 0 at the start */
	cell_set(g, CP(CP_KIND), CP_COPY);
	emit_jmp_imm(&g->e, BPF_JEQ, R1, 0, l.head);
	out_put(g, c, out, -1, '/', l.brk);
	emit_ja(&g->e, l.head);
	emit_label(&g->e, copy);				/* COPY */
	cell_load(g, R1, CP(CP_R));
	cell_load(g, R2, CP(CP_N));
	emit_jmp_reg(&g->e, BPF_JGE, R1, R2, to_scan);
	path_byte(g, c, s, R2, 0, l.brk);
	emit_jmp_imm(&g->e, BPF_JEQ, R2, '/', to_scan);
	out_put(g, c, out, R2, 0, l.brk);
	cell_add(g, CP(CP_R), 1);
	emit_ja(&g->e, l.head);
	emit_label(&g->e, back);				/* BACK */
	cell_load(g, R1, CP(CP_W));
	cell_load(g, R2, CP(CP_DOTDOT));
	emit_jmp_reg(&g->e, BPF_JLE, R1, R2, to_scan);
	clamp_or(g, R1, out.size - 1, l.brk);
	byte_at(g, R2, R1, out.off);
	emit_jmp_imm(&g->e, BPF_JEQ, R2, '/', to_scan);
	emit_alu_imm(&g->e, BPF_SUB, R1, 1);
	cell_store(g, CP(CP_W), R1);
	emit_ja(&g->e, l.head);
	emit_label(&g->e, to_scan);
	cell_set(g, CP(CP_KIND), CP_SCAN);
	loop_end(g, n, &l);

	cell_load(g, R8, CP(CP_W));
	emit_jmp_imm(&g->e, BPF_JNE, R8, 0, notempty);
	put_const(g, d, ".");
	emit_ja(&g->e, done);
	emit_label(&g->e, notempty);
	emit_mov_imm(&g->e, R5, 0);
	copy_part(g, out, d, R5, R8, n->type.size);
	emit_label(&g->e, done);
	return d;
#undef CP
}

/* toupper/tolower a word at a time: for each byte b < 0x80,
 *	in = ((b & 0x7f) + (0x80 - lo)) & ~((b & 0x7f) + (0x80 - hi - 1))
 * has its top bit set when lo <= b <= hi; that bit >> 2 is 0x20. */
static struct val do_case(struct cg *g, struct node *n)
{
	struct val s = str_arg(g, n->args.v[0]);
	bool upper = strcmp(n->str, "toupper") == 0;
	uint8_t lo = upper ? 'a' : 'A', hi = upper ? 'z' : 'Z';
	uint64_t ones = 0x0101010101010101ull;
	struct val d = { .str = true, .size = s.size };

	d.off = cg_temp_new(g, n, d.size);
	emit_ld_imm64(&g->e, R4, 0x7f * ones);
	emit_ld_imm64(&g->e, R5, 0x80 * ones);
	for (uint32_t i = 0; i < s.size; i += 8) {
		emit_load(&g->e, 8, R0, R9, (int16_t)(s.off + i));
		emit_mov_reg(&g->e, R1, R0);
		emit_alu_reg(&g->e, BPF_AND, R1, R4);
		emit_mov_reg(&g->e, R2, R1);
		emit_ld_imm64(&g->e, R3, (uint64_t)(0x80 - lo) * ones);
		emit_alu_reg(&g->e, BPF_ADD, R2, R3);
		emit_ld_imm64(&g->e, R3, (uint64_t)(0x80 - hi - 1) * ones);
		emit_alu_reg(&g->e, BPF_ADD, R3, R1);
		emit_alu_imm(&g->e, BPF_XOR, R3, -1);
		emit_alu_reg(&g->e, BPF_AND, R2, R3);
		emit_mov_reg(&g->e, R1, R0);
		emit_alu_imm(&g->e, BPF_XOR, R1, -1);
		emit_alu_reg(&g->e, BPF_AND, R2, R1);
		emit_alu_reg(&g->e, BPF_AND, R2, R5);
		emit_alu_imm(&g->e, BPF_RSH, R2, 2);
		emit_alu_reg(&g->e, BPF_XOR, R0, R2);
		emit_store(&g->e, 8, R9, (int16_t)(d.off + i), R0);
	}
	return d;
}

/*
 * lltostr(v): 19 digits of |v| written right to left at static places,
 * the count of significant ones kept in r5, a '-' put before them, then
 * the copy from the first character truncates to the result's bound.
 */
static struct val do_lltostr(struct cg *g, struct node *n)
{
	struct val v = cg_expr(g, n->args.v[0]);
	struct val t = str_temp(g, n, 24);
	struct val d = str_temp(g, n, n->type.size);
	int pos = emit_new_label(&g->e), start = emit_new_label(&g->e);

	cg_load_slot(g, R1, v.slot);
	emit_mov_imm(&g->e, R4, 0);
	emit_jmp_imm(&g->e, BPF_JSGE, R1, 0, pos);
	emit_alu_imm(&g->e, BPF_NEG, R1, 0);
	emit_mov_imm(&g->e, R4, 1);
	emit_label(&g->e, pos);
	emit_mov_imm(&g->e, R5, 1);
	for (int k = 0; k < 19; k++) {
		int skip = emit_new_label(&g->e);

		emit_mov_reg(&g->e, R2, R1);
		emit_alu_imm(&g->e, BPF_MOD, R2, 10);
		emit_alu_imm(&g->e, BPF_ADD, R2, '0');
		emit_store(&g->e, 1, R9, (int16_t)(t.off + 19 - k), R2);
		emit_alu_imm(&g->e, BPF_DIV, R1, 10);
		emit_jmp_imm(&g->e, BPF_JEQ, R1, 0, skip);
		emit_mov_imm(&g->e, R5, k + 2);
		emit_label(&g->e, skip);
	}
	/* r5 = 20 - ndigits: the first digit; one less with the sign */
	emit_mov_imm(&g->e, R0, 20);
	emit_alu_reg(&g->e, BPF_SUB, R0, R5);
	emit_mov_reg(&g->e, R5, R0);
	emit_jmp_imm(&g->e, BPF_JEQ, R4, 0, start);
	emit_alu_imm(&g->e, BPF_SUB, R5, 1);
	clamp_or(g, R5, 19, start);
	emit_mov_reg(&g->e, R1, R5);
	emit_alu_reg(&g->e, BPF_ADD, R1, R9);
	emit_store_imm(&g->e, 1, R1, (int16_t)t.off, '-');
	emit_label(&g->e, start);
	emit_mov_imm(&g->e, R8, 20);
	copy_part(g, t, d, R5, R8, n->type.size);
	return d;
}

/* ---- integers ---- */

static struct val do_byteorder(struct cg *g, struct node *n)
{
	struct val v = cg_expr(g, n->args.v[0]);
	int bits = (int)n->type.size * 8;

	cg_load_slot(g, R0, v.slot);
	emit_insn(&g->e, (struct bpf_insn){ .code = BPF_ALU | BPF_END | BPF_TO_BE,
					    .dst_reg = R0, .imm = bits });
	return int_result(g, n, R0);
}

/* Linux dev_t: 12 bits of major above 20 of minor */
static struct val do_devpart(struct cg *g, struct node *n)
{
	struct val v = cg_expr(g, n->args.v[0]);

	cg_load_slot(g, R0, v.slot);
	emit_alu32_reg(&g->e, BPF_MOV, R0, R0);
	if (strcmp(n->str, "getmajor") == 0)
		emit_alu_imm(&g->e, BPF_RSH, R0, 20);
	else
		emit_alu_imm(&g->e, BPF_AND, R0, 0xfffff);
	return int_result(g, n, R0);
}

static struct val do_rand(struct cg *g, struct node *n)
{
	emit_call(&g->e, BPF_FUNC_get_prandom_u32);
	return int_result(g, n, R0);
}

/* ---- destructive actions (sema requires -w) ---- */

/* raise(sig) and stop(): a signal to the current process */
static struct val do_raise(struct cg *g, struct node *n)
{
	if (n->args.n) {
		struct val sig = cg_expr(g, n->args.v[0]);

		cg_load_slot(g, R1, sig.slot);
	} else {
		emit_mov_imm(&g->e, R1, 19);	/* stop(): SIGSTOP */
	}
	emit_call(&g->e, BPF_FUNC_send_signal);
	return cg_int_val(cg_slot_new(g, n));
}

/*
 * chill(ns): spin in the probe for ns nanoseconds, as DTrace does, to
 * widen a race window.  BPF cannot loop unboundedly, but bpf_loop can:
 * its callback reads the clock until the deadline, and three calls of at
 * most 2^23 iterations each (some 20 ns an iteration) cover more than
 * DTrace's limit.  That limit is DTrace's chill_max, 500 ms; asking for
 * more is an illegal operation, reported as DTrace reports it.  (DTrace
 * caps the sum over each second per CPU; here each call is capped.)
 *
 *	if (ns > CHILL_MAX) fault(ILLOP)
 *	deadline = ktime_get_ns() + ns
 *	bpf_loop(1 << 23, chill_cb, &deadline, 0)	three times
 */
#define CHILL_MAX 500000000
#define CHILL_LOOPS 3

static struct val do_chill(struct cg *g, struct node *n)
{
	struct val ns = cg_expr(g, n->args.v[0]);
	int16_t deadline = cg_slot_new(g, n);
	int ok = emit_new_label(&g->e);

	if (!kcaps_has(KCAP_LOOP))
		diag_fail(g->d, n->line, n->col, "D_UNSUPPORTED",
			  "chill() waits in bpf_loop, which this kernel lacks "
			  "(bpf_loop in dscope -vV; Linux 5.17+)");
	if (!g->chill_cb)
		g->chill_cb = emit_new_label(&g->e);
	cg_load_slot(g, R1, ns.slot);
	emit_jmp_imm(&g->e, BPF_JLE, R1, CHILL_MAX, ok);
	cg_fault(g, FLT_ILLOP, -1);
	emit_label(&g->e, ok);
	emit_call(&g->e, BPF_FUNC_ktime_get_ns);
	cg_load_slot(g, R1, ns.slot);
	emit_alu_reg(&g->e, BPF_ADD, R0, R1);
	cg_store_slot(g, deadline, R0);
	for (int i = 0; i < CHILL_LOOPS; i++) {
		emit_mov_imm(&g->e, R1, 1 << 23);
		emit_ld_func(&g->e, R2, g->chill_cb);
		cg_fp_ptr(g, R3, deadline);
		emit_mov_imm(&g->e, R4, 0);
		emit_call(&g->e, BPF_FUNC_loop);
	}
	return cg_int_val(cg_slot_new(g, n));
}

/*
 * chill's bpf_loop callback (index, ctx): ctx points at the deadline.
 *
 *	return ktime_get_ns() >= *ctx		1 ends the loop
 */
int cg_chill_callback(struct cg *g, struct spec_subprog *sub)
{
	int past = emit_new_label(&g->e);

	if (!g->chill_cb)
		return 0;
	*sub = (struct spec_subprog){ (uint32_t)g->e.n, "dscope_chill" };
	emit_label(&g->e, g->chill_cb);
	emit_mov_reg(&g->e, R6, R2);
	emit_call(&g->e, BPF_FUNC_ktime_get_ns);
	emit_load(&g->e, 8, R1, R6, 0);
	emit_jmp_reg(&g->e, BPF_JGE, R0, R1, past);
	emit_mov_imm(&g->e, R0, 0);
	emit_exit(&g->e);
	emit_label(&g->e, past);
	emit_mov_imm(&g->e, R0, 1);
	emit_exit(&g->e);
	return 1;
}

/*
 * copyoutstr(str, uaddr, maxlen): str's bytes, NUL included, at most
 * maxlen of them, written into the current process at uaddr with
 * bpf_probe_write_user; a page that cannot be written is a fault.
 */
static struct val do_copyoutstr(struct cg *g, struct node *n)
{
	struct val str = cg_expr(g, n->args.v[0]);
	struct val uaddr = cg_expr(g, n->args.v[1]);
	struct val max = cg_expr(g, n->args.v[2]);
	int fits = emit_new_label(&g->e), ok = emit_new_label(&g->e);
	int done = emit_new_label(&g->e);

	if (!str.str)
		diag_fail(g->d, n->line, n->col, "D_UNSUPPORTED",
			  "copyoutstr( ) copies a string value");
	cg_load_slot(g, R3, max.slot);
	emit_jmp_imm(&g->e, BPF_JSLE, R3, 0, done);
	emit_jmp_imm(&g->e, BPF_JLE, R3, (int32_t)str.size, fits);
	emit_mov_imm(&g->e, R3, (int32_t)str.size);
	emit_label(&g->e, fits);
	cg_load_slot(g, R1, uaddr.slot);
	emit_mov_reg(&g->e, R8, R1);
	cg_scratch_ptr(g, R2, str.off);
	emit_call(&g->e, BPF_FUNC_probe_write_user);
	emit_jmp_imm(&g->e, BPF_JEQ, R0, 0, ok);
	cg_fault(g, FLT_BADADDR, R8);
	emit_label(&g->e, ok);
	emit_label(&g->e, done);
	return cg_int_val(cg_slot_new(g, n));
}

/*
 * progenyof(pid): is the current process pid or one of its descendants?
 * Up the real_parent chain until pid, or the top (a task its own parent).
 * cells: 0 task, 1 pid, 2 tgid read, 3 parent read, 4 result
 * At most PROGENY_DEPTH ancestors; a bounded loop (no bpf_loop) goes up
 * PROGENY_DEPTH_BOUNDED: the verifier keeps a branch of each step
 * pending, and refuses a path with more than 8192 of them.
 */
#define PROGENY_DEPTH 4096
#define PROGENY_DEPTH_BOUNDED 1024

static struct val do_progenyof(struct cg *g, struct node *n)
{
	struct val pid = cg_expr(g, n->args.v[0]);
	struct ktype_field tgid, parent;
	uint32_t c = cells_new(g, n, 5);
	struct loop l;
	int next = emit_new_label(&g->e);

	if (ktype_field("task_struct.tgid", &tgid) < 0 ||
	    ktype_field("task_struct.real_parent", &parent) < 0)
		diag_fail(g->d, n->line, n->col, "D_KTYPE",
			  "progenyof( ): kernel type information (BTF) lacks "
			  "task_struct.tgid or real_parent");
	cell_set(g, c + 32, 0);
	cg_load_slot(g, R0, pid.slot);
	cell_store(g, c + 8, R0);
	emit_call(&g->e, BPF_FUNC_get_current_task);
	cell_store(g, c, R0);
	loop_begin(g, n, &l, loop_bounded() ? PROGENY_DEPTH_BOUNDED : PROGENY_DEPTH);
	cell_set(g, c + 16, 0);
	cg_scratch_ptr(g, R1, c + 16);
	emit_mov_imm(&g->e, R2, 4);
	cell_load(g, R3, c);
	emit_alu_imm(&g->e, BPF_ADD, R3, (int32_t)tgid.off[0]);
	emit_call(&g->e, BPF_FUNC_probe_read_kernel);
	emit_load(&g->e, 4, R1, R9, (int16_t)(c + 16));
	emit_load(&g->e, 4, R2, R9, (int16_t)(c + 8));
	emit_jmp_reg(&g->e, BPF_JNE, R1, R2, next);
	cell_set(g, c + 32, 1);
	emit_ja(&g->e, l.brk);
	emit_label(&g->e, next);
	cell_set(g, c + 24, 0);
	cg_scratch_ptr(g, R1, c + 24);
	emit_mov_imm(&g->e, R2, 8);
	cell_load(g, R3, c);
	emit_alu_imm(&g->e, BPF_ADD, R3, (int32_t)parent.off[0]);
	emit_call(&g->e, BPF_FUNC_probe_read_kernel);
	cell_load(g, R1, c + 24);
	cell_load(g, R2, c);
	emit_jmp_imm(&g->e, BPF_JEQ, R1, 0, l.brk);
	emit_jmp_reg(&g->e, BPF_JEQ, R1, R2, l.brk);		/* the top */
	cell_store(g, c, R1);
	loop_end(g, n, &l);
	cell_load(g, R0, c + 32);
	return int_result(g, n, R0);
}

/* ---- user memory ---- */


/*
 * A sleepable program's second try at copyinstr, where the first (r0 < 0)
 * found a page not in memory, with the size in slot sz.  Where the kernel
 * has it, one call that faults the pages in and pads with NULs:
 *	r0 = (s32)bpf_copy_from_user_str(d, sz, addr, BPF_F_PAD_ZEROS)
 * else each page the string may lie on is faulted in by reading a byte
 * of it (a page past the string's end may not exist: that read's failure
 * is no matter), and the copy tried again:
 *	for (k = 0; k < pages; k++)
 *		copy_from_user(fp + byte, 1, (addr & -4096) + 4096 * k)
 *	r0 = probe_read_user_str(d, sz, addr)
 */
static void copyinstr_faulting(struct cg *g, struct node *n, uint32_t doff,
			       int16_t addr, int16_t sz)
{
	uint32_t pages = (n->type.size + 4094) / 4096 + 1;
	int16_t byte;

	if (kcaps_has(KCAP_COPY_STR)) {
		cg_scratch_ptr(g, R1, doff);
		cg_load_slot(g, R2, sz);
		cg_load_slot(g, R3, addr);
		emit_mov_imm(&g->e, R4, 1);		/* BPF_F_PAD_ZEROS */
		kfunc_call(g, n, "bpf_copy_from_user_str");
		/* it returns an int: -EFAULT comes back in r0's low half */
		emit_alu_imm(&g->e, BPF_LSH, R0, 32);
		emit_alu_imm(&g->e, BPF_ARSH, R0, 32);
		return;
	}
	byte = cg_slot_new(g, n);
	for (uint32_t k = 0; k < pages; k++) {
		cg_fp_ptr(g, R1, byte);
		emit_mov_imm(&g->e, R2, 1);
		cg_load_slot(g, R3, addr);
		emit_alu_imm(&g->e, BPF_AND, R3, -4096);
		emit_alu_imm(&g->e, BPF_ADD, R3, (int32_t)(4096 * k));
		emit_call(&g->e, BPF_FUNC_copy_from_user);
	}
	cg_scratch_ptr(g, R1, doff);
	cg_load_slot(g, R2, sz);
	cg_load_slot(g, R3, addr);
	emit_call(&g->e, BPF_FUNC_probe_read_user_str);
}

/*
 * r0 = bpf_probe_read_user_str(r9 + doff, size in slot sz, address in
 * slot addr), into a zeroed temp of n's type; a sleepable program (cg.c)
 * tries again where that failed, faulting.  -x record's strings at the
 * probe (cg_record.c) are copied as copyinstr's.
 */
void cg_read_user_str(struct cg *g, struct node *n, uint32_t doff, int16_t addr,
		      int16_t sz)
{
	int done = emit_new_label(&g->e);

	cg_load_slot(g, R2, sz);
	cg_load_slot(g, R3, addr);
	cg_scratch_ptr(g, R1, doff);
	emit_call(&g->e, BPF_FUNC_probe_read_user_str);
	if (g->sleepable) {
		emit_jmp_imm(&g->e, BPF_JSGE, R0, 0, done);
		copyinstr_faulting(g, n, doff, addr, sz);
	}
	emit_label(&g->e, done);
}

/*
 * copyinstr(addr [, maxlen]): the user's string, into a zeroed temp; in a
 * replay, the string the probe recorded from addr.
 */
static struct val do_copyinstr(struct cg *g, struct node *n)
{
	struct val addr = cg_expr(g, n->args.v[0]);
	struct val max = n->args.n > 1 ? cg_expr(g, n->args.v[1]) : addr;
	struct val d = str_temp(g, n, n->type.size);
	int16_t sz = cg_slot_new(g, n);

	emit_mov_imm(&g->e, R2, (int32_t)n->type.size);
	if (n->args.n > 1 && n->args.v[1]->kind != N_INT) {
		int ok = emit_new_label(&g->e);

		cg_load_slot(g, R1, max.slot);
		emit_alu_imm(&g->e, BPF_ADD, R1, 1);
		emit_jmp_reg(&g->e, BPF_JLE, R2, R1, ok);	/* size <= max+1 */
		emit_mov_reg(&g->e, R2, R1);
		emit_label(&g->e, ok);
	}
	cg_store_slot(g, sz, R2);
	if (g->att == ATTACH_REPLAY)
		cg_replay_copyinstr(g, d.off, addr.slot, sz);
	else
		cg_read_user_str(g, n, d.off, addr.slot, sz);
	fault_if_neg(g, addr.slot);
	return d;
}


/* copyin(addr, size): the bytes land in a scratch temp whose address is
 * the value.  The temp lives until the end of
 * the statement. */
#define COPYIN_MAX 256
static struct val do_copyin(struct cg *g, struct node *n)
{
	struct val addr = cg_expr(g, n->args.v[0]);
	struct val size = cg_expr(g, n->args.v[1]);
	const struct node *sz = n->args.v[1];
	uint32_t cap = sz->kind == N_INT && sz->ival > 0 && sz->ival <= 4096
			       ? (uint32_t)sz->ival : COPYIN_MAX;
	uint32_t d = cg_temp_new(g, n, cap);
	int16_t slot = cg_slot_new(g, n);

	cg_load_slot(g, R2, size.slot);
	clamp_range(g, R2, 0, (int32_t)cap);
	cg_load_slot(g, R3, addr.slot);
	cg_scratch_ptr(g, R1, d);
	emit_call(&g->e, cg_user_read_func(g));
	fault_if_neg(g, addr.slot);
	cg_scratch_addr(g, n, slot, d);
	return cg_int_val(slot);
}

/*
 * copyout(buf, uaddr, nbytes): nbytes at buf (kernel memory, alloca() and
 * copyin() memory included) written into the current process at uaddr
 * (destructive: sema requires -w).  bpf_probe_write_user takes its source
 * only from memory the verifier can bound, so the bytes pass through a
 * scratch temp: nbytes of it when nbytes is a constant (up to 4096), else
 * COPYIN_MAX, and a larger nbytes at run time is a fault (out of scratch
 * space), never a short copy.
 *
 *	if (n == 0) goto done
 *	if (n > cap) fault(NOSCRATCH)
 *	if (probe_read_kernel(tmp, n, buf)) fault(BADADDR, buf)
 *	if (probe_write_user(uaddr, tmp, n)) fault(BADADDR, uaddr)
 * done:
 */
static void copyout_len(struct cg *g, int reg, int16_t slot, uint32_t cap,
			int done, int too_big)
{
	cg_load_slot(g, reg, slot);
	emit_jmp_imm(&g->e, BPF_JEQ, reg, 0, done);
	emit_jmp_imm(&g->e, BPF_JGT, reg, (int32_t)cap, too_big);
}

static struct val do_copyout(struct cg *g, struct node *n)
{
	struct val buf = cg_expr_addr(g, n->args.v[0]);
	struct val uaddr = cg_expr(g, n->args.v[1]);
	struct val size = cg_expr(g, n->args.v[2]);
	const struct node *sz = n->args.v[2];
	uint32_t cap = sz->kind == N_INT && sz->ival > 0 && sz->ival <= 4096
			       ? (uint32_t)sz->ival : COPYIN_MAX;
	uint32_t d = cg_temp_new(g, n, cap);
	int done = emit_new_label(&g->e), too_big = emit_new_label(&g->e);
	int read = emit_new_label(&g->e), written = emit_new_label(&g->e);

	copyout_len(g, R2, size.slot, cap, done, too_big);
	cg_load_slot(g, R3, buf.slot);
	cg_scratch_ptr(g, R1, d);
	emit_call(&g->e, BPF_FUNC_probe_read_kernel);
	emit_jmp_imm(&g->e, BPF_JEQ, R0, 0, read);
	cg_load_slot(g, R8, buf.slot);
	cg_fault(g, FLT_BADADDR, R8);
	emit_label(&g->e, read);
	copyout_len(g, R3, size.slot, cap, done, too_big);
	cg_load_slot(g, R1, uaddr.slot);
	cg_scratch_ptr(g, R2, d);
	emit_call(&g->e, BPF_FUNC_probe_write_user);
	emit_jmp_imm(&g->e, BPF_JEQ, R0, 0, written);
	cg_load_slot(g, R8, uaddr.slot);
	cg_fault(g, FLT_BADADDR, R8);
	emit_label(&g->e, too_big);
	cg_fault(g, FLT_NOSCRATCH, -1);
	emit_label(&g->e, written);
	emit_label(&g->e, done);
	return cg_int_val(cg_slot_new(g, n));
}

/* ---- alloca() memory ---- */

/*
 * alloca(n): n bytes (rounded up to 8) of the clause's part of the scratch
 * area, [ALLOCA_OFF, ALLOCA_OFF + scratchsize), handed out at static
 * offsets in the order the calls appear and zeroed; the value is their
 * kernel address, so reads go the way of any other memory.  A size known
 * only when the clause runs takes the rest of the space and is checked
 * against it.
 */
static struct val do_alloca(struct cg *g, struct node *n)
{
	const struct node *sz = n->args.v[0];
	struct val size = cg_expr(g, n->args.v[0]);
	uint32_t off = g->alloca_top;
	/* (an expanded xlate may have taken some: cg_xlate_expand) */
	uint32_t cap = off < g->c->scratch_bytes ? g->c->scratch_bytes - off : 0;
	int16_t slot = cg_slot_new(g, n);

	if (sz->kind == N_INT && cg_round8((uint32_t)sz->ival) <= cap) {
		cap = cg_round8((uint32_t)sz->ival);
	} else {
		int ok = emit_new_label(&g->e);

		cg_load_slot(g, R0, size.slot);
		emit_jmp_imm(&g->e, BPF_JLE, R0, (int32_t)cap, ok);
		cg_fault(g, FLT_NOSCRATCH, -1);
		emit_label(&g->e, ok);
	}
	cg_zero_words(g, R9, ALLOCA_OFF + off, cap);
	cg_scratch_addr(g, n, slot, ALLOCA_OFF + off);
	g->alloca_top = off + cap;
	return cg_int_val(slot);
}

/* r0 = where the size bytes at the address in addr_slot start in the
 * clause's alloca() memory (r9 + ALLOCA_OFF + r0, r0 bounded for the
 * verifier); any other address is a fault */
static void alloca_offset(struct cg *g, const struct node *n,
			  int16_t addr_slot, uint32_t size)
{
	int16_t base = cg_slot_new(g, n);
	int ok = emit_new_label(&g->e);

	cg_scratch_addr(g, n, base, ALLOCA_OFF);
	cg_load_slot(g, R0, addr_slot);
	cg_load_slot(g, R1, base);
	emit_alu_reg(&g->e, BPF_SUB, R0, R1);
	/* (with no alloca() memory in the clause, only the first byte of
	 * the area passes, so that the code after the fault stays reachable
	 * for the verifier; what lands there is nobody's) */
	emit_jmp_imm(&g->e, g->alloca_top >= size ? BPF_JLE : BPF_JEQ, R0,
		     g->alloca_top >= size ? (int32_t)(g->alloca_top - size)
					   : 0, ok);
	cg_load_slot(g, R8, addr_slot);
	cg_fault(g, FLT_BADADDR, R8);
	emit_label(&g->e, ok);
}

/*
 * xlate <T *> (e) taken whole (sema_xlate.c: expand): a T in the clause's
 * alloca() memory, as DTrace's dt_cg_xlate_expand puts it in scratch,
 * each member its conversion's value and a member with none zero; the
 * value is its address (for xlate <T> too: a struct is its address).
 *	off = the next free bytes of alloca() memory, zeroed
 *	scalar: *(size *)(r9 + ALLOCA_OFF + off + m.off) = v
 *	string, struct, array: probe_read_kernel(that, m.size, &v)
 */
struct val cg_xlate_expand(struct cg *g, struct node *n)
{
	const struct dtype *out = n->type.kind == T_PTR && n->type.ct
				  ? &n->type.ct->elem : &n->type;
	uint32_t size = cg_round8(out->size), off = g->alloca_top;
	int16_t slot = cg_slot_new(g, n);

	if (off + size > ALLOCA_REGION)
		diag_fail(g->d, n->line, n->col, "D_ALLOCA_SIZE",
			  "translating to %s takes %u bytes of scratch space, "
			  "more than the %u the clause has left",
			  dtype_name(out), size, ALLOCA_REGION - off);
	g->alloca_top = off + size;
	cg_zero_words(g, R9, ALLOCA_OFF + off, size);
	for (int i = 0; i < n->args.n; i++) {
		const struct node *w = n->args.v[i];
		struct cmember m;
		struct val v;

		if (!ctype_member(out, w->str, &m) || m.bit_width)
			continue;
		v = cg_expr(g, w->a);
		int16_t at = (int16_t)(ALLOCA_OFF + off + m.off);

		if (v.str || m.type.kind == T_STRUCT || m.type.kind == T_ARRAY ||
		    m.type.kind == T_STRING) {
			uint32_t len = v.str && v.size < m.type.size ? v.size
								   : m.type.size;

			cg_scratch_ptr(g, R1, (uint32_t)at);
			emit_mov_imm(&g->e, R2, (int32_t)len);
			if (v.str)
				cg_scratch_ptr(g, R3, v.off);
			else
				cg_load_slot(g, R3, v.slot);
			emit_call(&g->e, BPF_FUNC_probe_read_kernel);
			if (v.str && len == m.type.size && len > 0)	/* a NUL */
				emit_store_imm(&g->e, 1, R9, (int16_t)(at + len - 1), 0);
			continue;
		}
		cg_load_slot(g, R1, v.slot);
		emit_store(&g->e, (int)(m.type.size > 8 ? 8 : m.type.size), R9,
			   at, R1);
	}
	cg_scratch_addr(g, n, slot, ALLOCA_OFF + off);
	return cg_int_val(slot);
}

/*
 * A read of size bytes at the address in addr_slot, in a clause that has
 * alloca() memory: an address in the scratch area must lie, all its
 * bytes, in that memory (DTrace's dtrace_canload of scratch: what the
 * clause has allocated, not before its bottom nor past its top); any
 * other address is read as memory is.
 *	r0 = addr - &scratch[ALLOCA_OFF]
 *	if r0 + ALLOCA_OFF >= SCRATCH_SIZE (unsigned): not the scratch area
 *	if r0 > top - size (unsigned): fault
 */
void cg_alloca_load_check(struct cg *g, const struct node *n,
			  int16_t addr_slot, uint32_t size)
{
	int16_t base = cg_slot_new(g, n);
	int ok = emit_new_label(&g->e), bad = emit_new_label(&g->e);

	cg_scratch_addr(g, n, base, ALLOCA_OFF);
	cg_load_slot(g, R0, addr_slot);
	cg_load_slot(g, R1, base);
	emit_alu_reg(&g->e, BPF_SUB, R0, R1);
	emit_mov_reg(&g->e, R1, R0);
	emit_alu_imm(&g->e, BPF_ADD, R1, ALLOCA_OFF);
	emit_jmp_imm(&g->e, BPF_JGE, R1, SCRATCH_SIZE, ok);
	if (g->alloca_top < size)
		emit_ja(&g->e, bad);
	else
		emit_jmp_imm(&g->e, BPF_JLE, R0,
			     (int32_t)(g->alloca_top - size), ok);
	emit_label(&g->e, bad);
	cg_load_slot(g, R8, addr_slot);
	cg_fault(g, FLT_BADADDR, R8);
	emit_label(&g->e, ok);
}

/*
 * r0 = a pointer the program may store size bytes through, for the
 * address in addr_slot: within one D global variable's storage (int a[4];
 * p = &a[1]; *p = 5) or in the clause's alloca() memory, as DTrace's
 * dtrace_canstore allows; any other address is a fault.
 *	r0 = addr - &globals[0]
 *	if (off_i <= r0 <= off_i + sizeof(global_i) - size, for some global i)
 *		r0 = &globals[r0]
 *	else r0 = r9 + ALLOCA_OFF + (addr - &scratch[ALLOCA_OFF]), checked
 */
static void store_place(struct cg *g, const struct node *n, int16_t addr_slot,
			uint32_t size)
{
	uint32_t gsize = g->spec->globals_size;
	int done = emit_new_label(&g->e);

	if (gsize >= size) {
		int16_t base = cg_slot_new(g, n);
		int other = emit_new_label(&g->e);

		emit_ld_map_value(&g->e, R0, MAP_GLOBALS,
				  sizeof(struct globals_hdr));
		cg_ptr_number(g, n, base, R0);
		int in = emit_new_label(&g->e);

		cg_load_slot(g, R0, addr_slot);
		cg_load_slot(g, R1, base);
		emit_alu_reg(&g->e, BPF_SUB, R0, R1);
		for (int i = 0; i < g->spec->nglobals; i++) {
			/* the variable's own bytes, not the padding after
			 * them: DTrace's variables are allocations of their
			 * size (dtrace_canstore_statvar) */
			uint32_t off = g->spec->globals[i].off;
			uint32_t end = off + g->spec->globals[i].type.size;
			int next = emit_new_label(&g->e);

			if (end - off < size)
				continue;
			emit_jmp_imm(&g->e, BPF_JLT, R0, (int32_t)off, next);
			emit_jmp_imm(&g->e, BPF_JLE, R0,
				     (int32_t)(end - size), in);
			emit_label(&g->e, next);
		}
		emit_ja(&g->e, other);
		emit_label(&g->e, in);
		emit_ld_map_value(&g->e, R1, MAP_GLOBALS,
				  sizeof(struct globals_hdr));
		emit_alu_reg(&g->e, BPF_ADD, R0, R1);
		emit_ja(&g->e, done);
		emit_label(&g->e, other);
	}
	alloca_offset(g, n, addr_slot, size);
	emit_alu_reg(&g->e, BPF_ADD, R0, R9);
	emit_alu_imm(&g->e, BPF_ADD, R0, ALLOCA_OFF);
	emit_label(&g->e, done);
}

/*
 *	*(string *)addr = s: the string's bytes, its NUL padding included,
 *	at most the string type's size, copied from its scratch temp; the
 *	bytes written, not the type, must lie where a store may go, so
 *	that "x" fits the 8 bytes a script allocated for it:
 *	r0 = store_place(addr, n)
 *	probe_read_kernel(r0, n, &temp)
 */
static struct val store_string(struct cg *g, struct node *n)
{
	struct val v = cg_expr(g, n->b);
	struct val addr = cg_mem_addr(g, n->a);
	uint32_t size = v.size < n->a->type.size ? v.size : n->a->type.size;
	int ok = emit_new_label(&g->e);

	store_place(g, n, addr.slot, size);
	emit_mov_reg(&g->e, R1, R0);
	emit_mov_imm(&g->e, R2, (int32_t)size);
	cg_scratch_ptr(g, R3, v.off);
	emit_call(&g->e, BPF_FUNC_probe_read_kernel);
	emit_jmp_imm(&g->e, BPF_JEQ, R0, 0, ok);
	cg_load_slot(g, R8, addr.slot);
	cg_fault(g, FLT_BADADDR, R8);
	emit_label(&g->e, ok);
	return v;
}

/*
 *	*(T *)addr = v, addr in this clause's alloca() memory or in a D
 *	global variable:
 *	r0 = store_place(addr, sizeof(T))
 *	*(T *)r0 = v
 */
struct val cg_mem_store(struct cg *g, struct node *n)
{
	struct node *lhs = n->a;
	const struct dtype *t = &lhs->type;
	const struct cmember *m = lhs->kind == N_MEMBER ? lhs->cg : NULL;
	struct val v, addr;

	if (t->kind == T_STRING)
		return store_string(g, n);

	if (m && m->bit_width)
		diag_fail(g->d, n->line, n->col, "D_UNSUPPORTED",
			  "assignment to a bit-field in memory cannot be "
			  "compiled yet");
	if (!n->compound) {
		v = cg_expr(g, n->b);
		addr = cg_mem_addr(g, lhs);
	} else {
		/* the left operand first, as in cg_var_assign */
		addr = cg_mem_addr(g, lhs);
		struct val cur = cg_mem_read(g, lhs);

		v = cg_expr(g, n->b);
		cg_load_slot(g, R0, cur.slot);
		cg_load_slot(g, R1, v.slot);
		cg_alu_op(g, n, n->op, t->is_signed);
		cg_store_slot(g, cur.slot, R0);
		v = cur;
	}
	cg_load_slot(g, R0, v.slot);
	cg_normalize(g, R0, t);
	cg_store_slot(g, v.slot, R0);
	store_place(g, n, addr.slot, t->size);
	cg_load_slot(g, R1, v.slot);
	emit_store(&g->e, (int)t->size, R0, 0, R1);
	return v;
}

/*
 * bcopy(src, dst, n) and copyinto(uaddr, n, dst): n bytes from kernel or
 * user memory into the clause's alloca() memory.
 *
 *	r0 = dst - &scratch[ALLOCA_OFF]; fault unless r0 <= top
 *	r2 = n; fault unless r2 <= top - r0
 *	probe_read_{kernel,user}(r9 + ALLOCA_OFF + r0, r2, src)
 */
static void copy_to_alloca(struct cg *g, struct node *n, struct val src,
			   struct val size, struct val dst, bool user)
{
	int16_t base = cg_slot_new(g, n);
	int bad = emit_new_label(&g->e), ok = emit_new_label(&g->e);
	uint32_t top = g->alloca_top;

	cg_scratch_addr(g, n, base, ALLOCA_OFF);
	cg_load_slot(g, R0, dst.slot);
	cg_load_slot(g, R1, base);
	emit_alu_reg(&g->e, BPF_SUB, R0, R1);
	emit_jmp_imm(&g->e, BPF_JGT, R0, (int32_t)top, bad);
	cg_load_slot(g, R2, size.slot);
	emit_jmp_imm(&g->e, BPF_JGT, R2, (int32_t)top, bad);
	emit_mov_imm(&g->e, R1, (int32_t)top);
	emit_alu_reg(&g->e, BPF_SUB, R1, R0);
	emit_jmp_reg(&g->e, BPF_JGT, R2, R1, bad);
	emit_alu_reg(&g->e, BPF_ADD, R0, R9);
	emit_alu_imm(&g->e, BPF_ADD, R0, ALLOCA_OFF);
	emit_mov_reg(&g->e, R1, R0);
	cg_load_slot(g, R3, src.slot);
	emit_call(&g->e, user ? cg_user_read_func(g) : BPF_FUNC_probe_read_kernel);
	emit_jmp_imm(&g->e, BPF_JEQ, R0, 0, ok);
	cg_load_slot(g, R8, src.slot);
	cg_fault(g, FLT_BADADDR, R8);
	emit_label(&g->e, bad);
	cg_load_slot(g, R8, dst.slot);
	cg_fault(g, FLT_BADADDR, R8);
	emit_label(&g->e, ok);
}

static struct val do_bcopy(struct cg *g, struct node *n)
{
	struct val src = cg_expr_addr(g, n->args.v[0]);
	struct val dst = cg_expr(g, n->args.v[1]);
	struct val size = cg_expr(g, n->args.v[2]);

	copy_to_alloca(g, n, src, size, dst, false);
	return size;
}

static struct val do_copyinto(struct cg *g, struct node *n)
{
	struct val src = cg_expr(g, n->args.v[0]);
	struct val size = cg_expr(g, n->args.v[1]);
	struct val dst = cg_expr_addr(g, n->args.v[2]);

	copy_to_alloca(g, n, src, size, dst, true);
	return size;
}

/* ---- print() and tracemem(): memory into the record ---- */

static struct spec_action *data_action(struct cg *g, enum act_kind kind)
{
	struct spec_action *act = cg_new_action(g, kind);

	act->nfields = 2;
	act->fields = arena_alloc(g->a, sizeof(*act->fields) * 2);
	return act;
}

/* print(p): the address, then min(sizeof (*p), PRINT_MAX) bytes of *p */
static void do_print(struct cg *g, struct node *n)
{
	struct node *p = n->args.v[0];
	struct spec_action *act = data_action(g, ACT_PRINT);
	struct val v = cg_expr(g, p);
	const struct dtype *obj = &p->type.ct->elem;

	act->fields[0] = cg_record_val(g, p, v);
	act->fields[1].type = *obj;
	act->fields[1].off = cg_record_bytes(g, n, v.slot, obj->size < PRINT_MAX
							? obj->size : PRINT_MAX);
}

/* tracemem(a, n [, d]): d (-1 if not given: all), then n bytes at a */
static void do_tracemem(struct cg *g, struct node *n)
{
	struct spec_action *act = data_action(g, ACT_TRACEMEM);
	struct val a = cg_expr(g, n->args.v[0]);
	uint32_t size = (uint32_t)n->args.v[1]->ival;
	struct val d;

	if (n->args.n > 2) {
		d = cg_expr(g, n->args.v[2]);
	} else {
		d = cg_int_val(cg_slot_new(g, n));
		emit_store_imm(&g->e, 8, R10, d.slot, -1);
	}
	act->fields[0] = cg_record_val(g, n->args.n > 2 ? n->args.v[2]
							 : n->args.v[1], d);
	act->fields[0].type = type_int(8, true);
	act->fields[1].type.kind = T_ARRAY;
	act->fields[1].type.size = size;
	act->fields[1].off = cg_record_bytes(g, n, a.slot, size);
}

bool cg_data_action(struct cg *g, struct node *n)
{
	if (strcmp(n->str, "print") == 0)
		do_print(g, n);
	else if (strcmp(n->str, "tracemem") == 0)
		do_tracemem(g, n);
	else
		return false;
	return true;
}

/*
 * At a raw tracepoint the kernel's walk starts in the BPF program, then
 * the tracing machinery: bpf_trace_runN, and __bpf_trace_EVENT and
 * __traceiter_EVENT unless the kernel's static call skipped them (it
 * depends on what else is attached).  DTrace shows none of that, so the
 * program looks at frames 1-3 and skips those inside these functions,
 * whose addresses kallsyms gives at compile time:
 *
 *	bpf_get_stack(ctx, temp, 4 * 8, 0)
 *	skip = 1
 *	for i in 1..3: if (temp[i] in one of the ranges) skip++ else break
 */
static void stack_skip(struct cg *g, struct node *n, uint32_t off, int16_t skip)
{
	const char *event = g->att == ATTACH_RAW_TP ? g->probe->tp_event
			    : g->att == ATTACH_SYS_ENTER ? "sys_enter" : "sys_exit";
	int nargs = g->att == ATTACH_RAW_TP ? g->probe->tp_nargs : 2;
	const char *names[3] = {
		arena_printf(g->a, "bpf_trace_run%d", nargs),
		arena_printf(g->a, "__bpf_trace_%s", event),
		arena_printf(g->a, "__traceiter_%s", event),
	};
	uint64_t lo[3], hi[3];
	bool known[3], any = false;
	int done = emit_new_label(&g->e);

	emit_mov_imm(&g->e, R0, 1);
	cg_store_slot(g, skip, R0);
	for (int k = 0; k < 3; k++)
		any |= known[k] = ksym_range(names[k], &lo[k], &hi[k]);
	if (!any)	/* kallsyms hides addresses (no CAP_SYSLOG): none to skip */
		return;
	emit_mov_reg(&g->e, R1, R6);
	cg_scratch_ptr(g, R2, off);
	emit_mov_imm(&g->e, R3, 32);
	emit_mov_imm(&g->e, R4, 0);
	emit_call(&g->e, BPF_FUNC_get_stack);
	for (int f = 1; f < 4; f++) {
		int machinery = emit_new_label(&g->e);

		emit_load(&g->e, 8, R1, R9, (int16_t)(off + 8 * f));
		for (int k = 0; k < 3; k++) {
			int next = emit_new_label(&g->e);

			if (!known[k])
				continue;
			emit_ld_imm64(&g->e, R2, lo[k]);
			emit_jmp_reg(&g->e, BPF_JLT, R1, R2, next);
			emit_ld_imm64(&g->e, R2, hi[k]);
			emit_jmp_reg(&g->e, BPF_JLT, R1, R2, machinery);
			emit_label(&g->e, next);
		}
		emit_ja(&g->e, done);
		emit_label(&g->e, machinery);
		cg_load_slot(g, R0, skip);
		emit_alu_imm(&g->e, BPF_ADD, R0, 1);
		cg_store_slot(g, skip, R0);
	}
	emit_label(&g->e, done);
	(void)n;
}

/*
 * At fbt:::entry, as in DTrace, the stack starts in the caller, where the
 * function will return to: the function itself has no frame yet.  A
 * kprobe's walk starts at the probed instruction, the function's first,
 * so that one frame goes; an fentry program's walk starts in the program,
 * then the trampoline, then the function (its fentry call): three.  At
 * fbt:::return, a kretprobe's walk starts where the function returns
 * to, and fexit's as fentry's.
 */
static int fbt_frames(enum spec_attach att)
{
	return att == ATTACH_KPROBE ? 1 : att == ATTACH_FENTRY || att == ATTACH_FEXIT ? 3 : 0;
}

/*
 * A kretprobe's stack, on kernels whose kretprobe handler still holds
 * the trampoline in regs->ip (before 5.14), starts at the trampoline:
 * the real return address, where DTrace's return probe says it returns
 * to, is only in the kretprobe instance being handled.  Such kernels
 * keep their instances in one table of hash lists by task (BTF shows a
 * task member in struct kretprobe_instance, which later kernels dropped
 * for a list of the task's own), and while the handler runs, the
 * instance it handles is the task's first in its bucket (they are
 * pushed at the head as calls are made, popped as they return) with
 * ret_addr the real address.  So where the stack's first frame is the
 * trampoline, it is replaced by that ret_addr:
 *
 *	if (temp[0] == kretprobe_trampoline) {
 *		task = current; ri = table[hash_64(task, 6)].first
 *		repeat KRETPROBE_SCAN times:
 *			if (!ri) break
 *			if (ri->task == task) { temp[0] = ri->ret_addr; break }
 *			ri = ri->hlist.next
 *	}
 *
 * The kernel's hash is hash_ptr(task, KPROBE_HASH_BITS): the address
 * times GOLDEN_RATIO_64, its top 6 bits.  Nothing is read where a symbol
 * or member is missing: the trampoline then stays, as before.
 */
#define KRETPROBE_SCAN 8
#define KPROBE_HASH_BITS 6
#define GOLDEN_RATIO_64 0x61C8864680B583EBull

struct kretprobe_table {
	uint64_t tramp, table;
	uint32_t task_off, ret_off;
};

static bool kretprobe_table(struct kretprobe_table *t)
{
	struct ktype_field task, ret, next;
	uint64_t end;
	const char *kmod;

	return ktype_field("kretprobe_instance.task", &task) == 0 &&
	       ktype_field("kretprobe_instance.ret_addr", &ret) == 0 &&
	       ktype_field("hlist_node.next", &next) == 0 && next.off[0] == 0 &&
	       ksym_range("kretprobe_trampoline", &t->tramp, &end) &&
	       ksym_var_addr("vmlinux", "kretprobe_inst_table", &t->table,
			     &kmod) == KSYM_VAR_OK &&
	       (t->task_off = task.off[0], t->ret_off = ret.off[0], true);
}

/* *(u64 *)(fp + dst) = *(u64 *)(r3 + off), 0 if it cannot be read */
static void kread_quiet(struct cg *g, int16_t dst, int32_t off)
{
	if (off)
		emit_alu_imm(&g->e, BPF_ADD, R3, off);
	cg_fp_ptr(g, R1, dst);
	emit_mov_imm(&g->e, R2, 8);
	emit_call(&g->e, BPF_FUNC_probe_read_kernel);
}

static void kretprobe_return_addr(struct cg *g, struct node *n, uint32_t off)
{
	struct kretprobe_table t;

	if (g->att != ATTACH_KRETPROBE || !kretprobe_table(&t))
		return;
	int16_t r0 = cg_slot_new(g, n), task = cg_slot_new(g, n);
	int16_t ri = cg_slot_new(g, n), word = cg_slot_new(g, n);
	int out = emit_new_label(&g->e), found = emit_new_label(&g->e);

	cg_store_slot(g, r0, R0);
	emit_load(&g->e, 8, R1, R9, (int16_t)off);
	emit_ld_imm64(&g->e, R2, t.tramp);
	emit_jmp_reg(&g->e, BPF_JNE, R1, R2, out);
	emit_call(&g->e, BPF_FUNC_get_current_task);
	cg_store_slot(g, task, R0);
	emit_ld_imm64(&g->e, R1, GOLDEN_RATIO_64);
	emit_alu_reg(&g->e, BPF_MUL, R0, R1);
	emit_alu_imm(&g->e, BPF_RSH, R0, 64 - KPROBE_HASH_BITS);
	emit_alu_imm(&g->e, BPF_LSH, R0, 3);
	emit_ld_imm64(&g->e, R3, t.table);
	emit_alu_reg(&g->e, BPF_ADD, R3, R0);
	kread_quiet(g, ri, 0);
	for (int k = 0; k < KRETPROBE_SCAN; k++) {
		cg_load_slot(g, R3, ri);
		emit_jmp_imm(&g->e, BPF_JEQ, R3, 0, out);
		kread_quiet(g, word, (int32_t)t.task_off);
		cg_load_slot(g, R1, word);
		cg_load_slot(g, R2, task);
		emit_jmp_reg(&g->e, BPF_JEQ, R1, R2, found);
		cg_load_slot(g, R3, ri);
		kread_quiet(g, ri, 0);
	}
	emit_ja(&g->e, out);
	emit_label(&g->e, found);
	cg_load_slot(g, R3, ri);
	emit_alu_imm(&g->e, BPF_ADD, R3, (int32_t)t.ret_off);
	cg_scratch_ptr(g, R1, off);
	emit_mov_imm(&g->e, R2, 8);
	emit_call(&g->e, BPF_FUNC_probe_read_kernel);
	emit_label(&g->e, out);
	cg_load_slot(g, R0, r0);
}

/*
 * stack([n]): the kernel stack into a temp of n + 1 words, the last one
 * (and any the kernel leaves unfilled) zero:
 *
 *	temp = { 0 }
 *	bpf_get_stack(ctx, temp, n * 8, skip)	BPF_F_SKIP_FIELD_MASK
 *
 * A perf event's stack starts at the interrupted pc: skip is 0.  A failure
 * (no stack at this probe) leaves an empty stack.
 */
/* temp at off = the current task's kernel stack, size bytes (the last
 * word stays 0: the end), leading tracing frames skipped */
static void capture_stack(struct cg *g, struct node *n, uint32_t off,
			  uint32_t size)
{
	bool raw_tp = g->att == ATTACH_SYS_ENTER || g->att == ATTACH_SYS_EXIT ||
		      g->att == ATTACH_RAW_TP;
	int16_t skip = cg_slot_new(g, n);

	if (raw_tp) {
		stack_skip(g, n, off, skip);
	} else {
		emit_mov_imm(&g->e, R0, fbt_frames(g->att));
		cg_store_slot(g, skip, R0);
	}
	cg_zero_words(g, R9, off, size);
	emit_mov_reg(&g->e, R1, R6);
	cg_scratch_ptr(g, R2, off);
	emit_mov_imm(&g->e, R3, (int32_t)(size - 8));
	cg_load_slot(g, R4, skip);
	emit_call(&g->e, BPF_FUNC_get_stack);
	kretprobe_return_addr(g, n, off);
}

/*
 * stack() of another task: at sched:::on-cpu the program runs in the
 * task leaving the CPU, but the stack wanted is the incoming task's --
 * where it blocked.  A blocked task's stack does not change, so the
 * on-cpu program saves each leaving task's stack (cg_save_offcpu_stack,
 * at its end) and looks up the incoming task's here (DESIGN.md 3.6).
 */
static struct val saved_stack(struct cg *g, struct node *n, struct val v)
{
	g->save_offcpu_stack = true;
	return cg_saved_stack(g, n, v, cg_offcpu_stack_map(g), OFFCPU_STACK);
}

/*
 * The incoming thread's saved stack (stack() or ustack(): map holds
 * saved bytes per thread) into the temp v:
 *
 *	saved = lookup(map, &incoming thread)
 *	temp = saved ? saved's first words : { 0 }; temp's last word = 0
 */
struct val cg_saved_stack(struct cg *g, struct node *n, struct val v, int map,
			  uint32_t saved)
{
	int16_t key = cg_slot_new(g, n);
	int absent = emit_new_label(&g->e), done = emit_new_label(&g->e);
	uint32_t n_copy = v.size < saved ? v.size : saved;

	cg_self_key(g, n, key);
	cg_ld_map(g, R1, map);
	cg_fp_ptr(g, R2, key);
	emit_call(&g->e, BPF_FUNC_map_lookup_elem);
	emit_jmp_imm(&g->e, BPF_JEQ, R0, 0, absent);
	emit_mov_reg(&g->e, R8, R0);
	cg_copy_words(g, false, R9, v.off, v.size, R8, 0, n_copy);
	emit_store_imm(&g->e, 8, R9, (int16_t)(v.off + v.size - 8), 0);
	emit_ja(&g->e, done);
	emit_label(&g->e, absent);
	cg_zero_words(g, R9, v.off, v.size);
	emit_label(&g->e, done);
	return v;
}

static struct val do_stack(struct cg *g, struct node *n)
{
	struct val v = { .str = true, .size = n->type.size };

	if (g->att == ATTACH_REPLAY)	/* the recorded frames */
		return cg_replay_stack(g, n, false);
	v.off = cg_temp_new(g, n, v.size < 32 ? 32 : v.size);
	if (cg_other_task(g))
		return saved_stack(g, n, v);
	capture_stack(g, n, v.off, v.size);
	return v;
}

/* At the end of an on-cpu program that used stack(): keep the leaving
 * task's stack, keyed by its thread, for when it comes back. */
void cg_save_offcpu_stack(struct cg *g)
{
	struct node at = { .line = 0 };
	int16_t key;
	uint32_t off;

	if (!g->save_offcpu_stack)
		return;
	g->sp = SLOT_FIRST + 8;
	g->tmp = g->tmp_base;
	key = cg_slot_new(g, &at);
	off = cg_temp_new(g, &at, OFFCPU_STACK);
	capture_stack(g, &at, off, OFFCPU_STACK);
	emit_call(&g->e, BPF_FUNC_get_current_pid_tgid);
	cg_store_slot(g, key, R0);
	cg_ld_map(g, R1, cg_offcpu_stack_map(g));
	cg_fp_ptr(g, R2, key);
	cg_scratch_ptr(g, R3, off);
	emit_mov_imm(&g->e, R4, BPF_ANY);
	emit_call(&g->e, BPF_FUNC_map_update_elem);
}

/* ---- symbols: sym() ... uaddr(), caller, stackdepth ... ---- */

/* sym(), func(), mod(): the address itself, typed to print as a symbol */
static struct val do_ksym(struct cg *g, struct node *n)
{
	struct val a = cg_expr(g, n->args.v[0]);

	cg_load_slot(g, R0, a.slot);
	return int_result(g, n, R0);
}

/*
 * usym(), ufunc(), umod(), uaddr(): a one-frame user stack, the pid
 * whose maps name the address, then the address (types.h):
 *
 *	temp[0] = pid; temp[1] = addr
 */
static struct val do_usym(struct cg *g, struct node *n)
{
	struct val a = cg_expr(g, n->args.v[0]);
	struct val v = { .str = true, .size = 16 };

	g->spec->user_stacks = true;
	v.off = cg_temp_new(g, n, v.size);
	emit_call(&g->e, BPF_FUNC_get_current_pid_tgid);
	emit_alu_imm(&g->e, BPF_RSH, R0, 32);
	emit_store(&g->e, 8, R9, (int16_t)v.off, R0);
	cg_load_slot(g, R0, a.slot);
	emit_store(&g->e, 8, R9, (int16_t)(v.off + 8), R0);
	return v;
}

#define STACKDEPTH_MAX 127	/* the kernel's perf_event_max_stack */

/*
 * caller and stackdepth describe the kernel stack stack() shows: its
 * first frame, the pc where the probe fired (in the function that fired
 * the tracepoint), and how many frames it has:
 *
 *	r0 = bpf_get_stack(ctx, temp, frames * 8, skip)
 *	slot = r0 <= 0 ? 0 : caller ? temp[0] : r0 / 8
 *
 * At sched:::on-cpu they describe the stack the program runs on, the
 * leaving thread's; stack() there is the incoming thread's saved one.
 */
static void kstack_builtin(struct cg *g, struct node *n, int16_t slot,
			   bool caller)
{
	uint32_t size = caller ? 16 : (STACKDEPTH_MAX + 1) * 8;
	uint32_t off = cg_temp_new(g, n, size);
	int none = emit_new_label(&g->e), done = emit_new_label(&g->e);

	capture_stack(g, n, off, size);
	emit_jmp_imm(&g->e, BPF_JSLE, R0, 0, none);
	if (caller)
		emit_load(&g->e, 8, R0, R9, (int16_t)off);
	else
		emit_alu_imm(&g->e, BPF_RSH, R0, 3);
	emit_ja(&g->e, done);
	emit_label(&g->e, none);
	emit_mov_imm(&g->e, R0, 0);
	emit_label(&g->e, done);
	cg_store_slot(g, slot, R0);
}

/*
 * ucaller: where the thread was in user space before the probe -- at a
 * pid entry probe the caller's return address, still at [sp]; elsewhere
 * the user pc (in the syscall wrapper at a syscall probe), the first
 * frame of any walk:
 *
 *	if (pid program && uprobe_entry->flags & UPROBE_F_ENTRY) {	(r7)
 *		bpf_probe_read_user(&slot, 8, regs->sp); goto done
 *	}
 *	slot = bpf_get_stack(ctx, temp, 8, USER) > 0 ? temp[0] : 0
 */
static void ucaller(struct cg *g, struct node *n, int16_t slot)
{
	uint32_t off = cg_temp_new(g, n, 8);
	int none = emit_new_label(&g->e), done = emit_new_label(&g->e);
	int inside = emit_new_label(&g->e), at_entry = emit_new_label(&g->e);

	emit_store_imm(&g->e, 8, R10, slot, 0);
	if (g->att == ATTACH_UPROBE) {
		emit_load(&g->e, 4, R1, R7, offsetof(struct uprobe_entry, flags));
		emit_jmp_imm(&g->e, BPF_JSET, R1, UPROBE_F_ENTRY, at_entry);
		emit_ja(&g->e, inside);
		emit_label(&g->e, at_entry);
		cg_fp_ptr(g, R1, slot);
		emit_mov_imm(&g->e, R2, 8);
		emit_load(&g->e, 8, R3, R6, PT_REGS_SP);
		emit_call(&g->e, BPF_FUNC_probe_read_user);
		emit_ja(&g->e, done);
	}
	emit_label(&g->e, inside);
	emit_mov_reg(&g->e, R1, R6);
	cg_scratch_ptr(g, R2, off);
	emit_mov_imm(&g->e, R3, 8);
	emit_mov_imm(&g->e, R4, (int32_t)F_USER_STACK);
	emit_call(&g->e, BPF_FUNC_get_stack);
	emit_mov_imm(&g->e, R1, 0);
	emit_jmp_imm(&g->e, BPF_JSLE, R0, 0, none);
	emit_load(&g->e, 8, R1, R9, (int16_t)off);
	emit_label(&g->e, none);
	cg_store_slot(g, slot, R1);
	emit_label(&g->e, done);
}

/*
 * ustackdepth: the frames ustack() would show, by the same walk (the
 * .eh_frame one with a target), counted:
 *
 *	temp = ustack(STACKDEPTH_MAX)		{ pid, pc0, pc1, ..., 0 }
 *	slot = 0; for each frame word: slot += (temp[i] | -temp[i]) >> 63
 *
 * (w | -w) >> 63 is w != 0 without a branch, so the verifier walks one
 * path, not one per frame.
 */
static void ustackdepth(struct cg *g, struct node *n, int16_t slot)
{
	struct node walk = *n;
	struct val v;

	walk.type.kind = T_STACK;
	walk.type.user = true;
	walk.type.size = (STACKDEPTH_MAX + 2) * 8;
	v = cg_ustack(g, &walk);
	emit_mov_imm(&g->e, R0, 0);
	for (uint32_t i = 8; i + 8 < v.size; i += 8) {
		emit_load(&g->e, 8, R1, R9, (int16_t)(v.off + i));
		emit_mov_reg(&g->e, R2, R1);
		emit_alu_imm(&g->e, BPF_NEG, R2, 0);
		emit_alu_reg(&g->e, BPF_OR, R1, R2);
		emit_alu_imm(&g->e, BPF_RSH, R1, 63);
		emit_alu_reg(&g->e, BPF_ADD, R0, R1);
	}
	cg_store_slot(g, slot, R0);
}

void cg_stack_builtin(struct cg *g, struct node *n, int16_t slot, bool user,
		      bool caller)
{
	if (user && caller)
		ucaller(g, n, slot);
	else if (user)
		ustackdepth(g, n, slot);
	else
		kstack_builtin(g, n, slot, caller);
}

/* ---- dispatch ---- */

static const struct {
	const char *name;
	struct val (*emit)(struct cg *g, struct node *n);
} subrs[] = {
	{ "alloca", do_alloca },
	{ "basename", do_basename },	{ "bcopy", do_bcopy },
	{ "cleanpath", do_cleanpath },	{ "copyinto", do_copyinto },
	{ "copyin", do_copyin },
	{ "copyinstr", do_copyinstr },	{ "dirname", do_basename },
	{ "getmajor", do_devpart },	{ "getminor", do_devpart },
	{ "htonl", do_byteorder },	{ "htonll", do_byteorder },
	{ "htons", do_byteorder },	{ "index", do_index },
	{ "inet_ntoa", cg_inet_ntoa },	{ "inet_ntoa6", cg_inet_ntoa6 },
	{ "inet_ntop", cg_inet_ntop },	{ "link_ntop", cg_link_ntop },
	{ "lltostr", do_lltostr },
	{ "ntohl", do_byteorder },	{ "ntohll", do_byteorder },
	{ "ntohs", do_byteorder },	{ "progenyof", do_progenyof },
	{ "rand", do_rand },		{ "rindex", do_index },
	{ "raise", do_raise },		{ "stop", do_raise },
	{ "chill", do_chill },
	{ "copyout", do_copyout },
	{ "copyoutstr", do_copyoutstr },
	{ "stack", do_stack },		{ "ustack", cg_ustack },
	{ "sym", do_ksym },		{ "func", do_ksym },
	{ "mod", do_ksym },		{ "usym", do_usym },
	{ "ufunc", do_usym },		{ "umod", do_usym },
	{ "uaddr", do_usym },		{ "cgroup_path", do_ksym },
	{ "speculation", cg_spec_speculation },
	{ "strchr", do_strchr },	{ "strjoin", do_strjoin },
	{ "strlen", do_strlen },	{ "strrchr", do_strchr },
	{ "strstr", do_strstr },	{ "strtok", do_strtok },
	{ "substr", do_substr },
	{ "tolower", do_case },		{ "toupper", do_case },
};

struct val cg_subr_call(struct cg *g, struct node *n)
{
	for (size_t i = 0; i < sizeof(subrs) / sizeof(subrs[0]); i++)
		if (strcmp(subrs[i].name, n->str) == 0)	/* a stack the
			 * clause records is kept as the clause took it */
			return cg_record_kept_stack(g, n, subrs[i].emit(g, n));
	diag_fail(g->d, n->line, n->col, "D_UNSUPPORTED",
		  "%s( ) cannot be compiled yet", n->str);
}
