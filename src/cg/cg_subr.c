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
void cg_kfunc_call(struct cg *g, const struct node *n, const char *name)
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
uint32_t cg_cells_new(struct cg *g, const struct node *n, int count)
{
	return cg_temp_new(g, n, 8 * (uint32_t)count);
}

void cg_cell_load(struct cg *g, int reg, uint32_t cell)
{
	emit_load(&g->e, 8, reg, R9, (int16_t)cell);
}

void cg_cell_store(struct cg *g, uint32_t cell, int reg)
{
	emit_store(&g->e, 8, R9, (int16_t)cell, reg);
}

void cg_cell_set(struct cg *g, uint32_t cell, int32_t imm)
{
	emit_store_imm(&g->e, 8, R9, (int16_t)cell, imm);
}

/* if reg (unsigned) > max goto label: gives the verifier reg's range */
void cg_clamp_or(struct cg *g, int reg, uint32_t max, int label)
{
	emit_jmp_imm(&g->e, BPF_JGT, reg, (int32_t)max, label);
}

/* reg = max(lo, min(reg, hi)), signed, hi and lo small */
void cg_clamp_range(struct cg *g, int reg, int32_t lo, int32_t hi)
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
void cg_byte_at(struct cg *g, int dst, int idx, uint32_t off)
{
	if (dst != idx)
		emit_mov_reg(&g->e, dst, idx);
	emit_alu_reg(&g->e, BPF_ADD, dst, R9);
	emit_load(&g->e, 1, dst, dst, (int16_t)off);
}

struct val cg_str_temp(struct cg *g, const struct node *n, uint32_t bound)
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
void cg_read_str(struct cg *g, uint32_t doff)
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
void cg_str_len(struct cg *g, struct val v)
{
	emit_mov_imm(&g->e, R2, (int32_t)v.size);
	cg_scratch_ptr(g, R3, v.off);
	cg_read_str(g, v.off);
	cg_clamp_range(g, R0, 1, (int32_t)v.size);
	emit_alu_imm(&g->e, BPF_SUB, R0, 1);
}

/* Copy count bytes of string v from index r_idx (both in registers,
 * count >= 0) to a fresh string of the given bound. */
void cg_copy_part(struct cg *g, struct val v, struct val d, int r_idx,
		      int r_cnt, uint32_t bound)
{
	int skip = emit_new_label(&g->e);

	cg_clamp_or(g, r_idx, v.size - 1, skip);
	cg_clamp_range(g, r_cnt, 0, (int32_t)bound - 1);
	src_at(g, v.off, r_idx);
	emit_mov_reg(&g->e, R2, r_cnt);
	emit_alu_imm(&g->e, BPF_ADD, R2, 1);
	cg_read_str(g, d.off);
	emit_label(&g->e, skip);
}

/* After a read of the address in slot: a negative r0 is a fault at that
 * address (never inside a loop: the clause is abandoned). */
void cg_fault_if_neg(struct cg *g, int16_t addr_slot)
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
void cg_loop_begin(struct cg *g, const struct node *n, struct loop *l,
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
		cg_kfunc_call(g, n, "bpf_iter_num_new");
		emit_label(&g->e, l->head);
		cg_fp_ptr(g, R1, l->it);
		cg_kfunc_call(g, n, "bpf_iter_num_next");
		emit_jmp_imm(&g->e, BPF_JEQ, R0, 0, l->brk);
		emit_load(&g->e, 4, R0, R0, 0);
	}
	emit_jmp_imm(&g->e, BPF_JGE, R0, (int32_t)count, l->brk);
}

void cg_loop_end(struct cg *g, const struct node *n, struct loop *l)
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
	cg_kfunc_call(g, n, "bpf_iter_num_destroy");
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
struct val cg_str_arg(struct cg *g, struct node *a)
{
	if (a->kind != N_STRINGOF || a->a->type.kind == T_STRING)
		return cg_expr(g, a);
	struct val p = cg_expr(g, a->a);
	struct val v = cg_str_temp(g, a, a->type.size);

	emit_mov_imm(&g->e, R2, (int32_t)a->type.size);
	cg_load_slot(g, R3, p.slot);
	cg_scratch_ptr(g, R1, v.off);	/* kernel memory: not read_str's */
	emit_call(&g->e, BPF_FUNC_probe_read_kernel_str);
	cg_fault_if_neg(g, p.slot);
	return v;
}

struct val cg_int_result(struct cg *g, const struct node *n, int reg)
{
	int16_t slot = cg_slot_new(g, n);

	cg_normalize(g, reg, &n->type);
	cg_store_slot(g, slot, reg);
	return cg_int_val(slot);
}

/* ---- integers ---- */

static struct val do_byteorder(struct cg *g, struct node *n)
{
	struct val v = cg_expr(g, n->args.v[0]);
	int bits = (int)n->type.size * 8;

	cg_load_slot(g, R0, v.slot);
	emit_insn(&g->e, (struct bpf_insn){ .code = BPF_ALU | BPF_END | BPF_TO_BE,
					    .dst_reg = R0, .imm = bits });
	return cg_int_result(g, n, R0);
}

/* Linux dev_t: 12 bits of major above 20 of minor */
static struct val do_devpart(struct cg *g, struct node *n)
{
	struct val v = cg_expr(g, n->args.v[0]);

	cg_load_slot(g, R0, v.slot);
	emit_alu32_reg(&g->e, BPF_MOV, R0, R0);
	if (n->fn == DF_GETMAJOR)
		emit_alu_imm(&g->e, BPF_RSH, R0, 20);
	else
		emit_alu_imm(&g->e, BPF_AND, R0, 0xfffff);
	return cg_int_result(g, n, R0);
}

static struct val do_rand(struct cg *g, struct node *n)
{
	emit_call(&g->e, BPF_FUNC_get_prandom_u32);
	return cg_int_result(g, n, R0);
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
	int fits = emit_new_label(&g->e);
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
	cg_call_or_fault(g, BPF_FUNC_probe_write_user, 0);
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
	uint32_t c = cg_cells_new(g, n, 5);
	struct loop l;
	int next = emit_new_label(&g->e);

	if (ktype_field("task_struct.tgid", &tgid) < 0 ||
	    ktype_field("task_struct.real_parent", &parent) < 0)
		diag_fail(g->d, n->line, n->col, "D_KTYPE",
			  "progenyof( ): kernel type information (BTF) lacks "
			  "task_struct.tgid or real_parent");
	cg_cell_set(g, c + 32, 0);
	cg_load_slot(g, R0, pid.slot);
	cg_cell_store(g, c + 8, R0);
	emit_call(&g->e, BPF_FUNC_get_current_task);
	cg_cell_store(g, c, R0);
	cg_loop_begin(g, n, &l, loop_bounded() ? PROGENY_DEPTH_BOUNDED : PROGENY_DEPTH);
	cg_cell_set(g, c + 16, 0);
	cg_scratch_ptr(g, R1, c + 16);
	emit_mov_imm(&g->e, R2, 4);
	cg_cell_load(g, R3, c);
	emit_alu_imm(&g->e, BPF_ADD, R3, (int32_t)tgid.off[0]);
	emit_call(&g->e, BPF_FUNC_probe_read_kernel);
	emit_load(&g->e, 4, R1, R9, (int16_t)(c + 16));
	emit_load(&g->e, 4, R2, R9, (int16_t)(c + 8));
	emit_jmp_reg(&g->e, BPF_JNE, R1, R2, next);
	cg_cell_set(g, c + 32, 1);
	emit_ja(&g->e, l.brk);
	emit_label(&g->e, next);
	cg_cell_set(g, c + 24, 0);
	cg_scratch_ptr(g, R1, c + 24);
	emit_mov_imm(&g->e, R2, 8);
	cg_cell_load(g, R3, c);
	emit_alu_imm(&g->e, BPF_ADD, R3, (int32_t)parent.off[0]);
	emit_call(&g->e, BPF_FUNC_probe_read_kernel);
	cg_cell_load(g, R1, c + 24);
	cg_cell_load(g, R2, c);
	emit_jmp_imm(&g->e, BPF_JEQ, R1, 0, l.brk);
	emit_jmp_reg(&g->e, BPF_JEQ, R1, R2, l.brk);		/* the top */
	cg_cell_store(g, c, R1);
	cg_loop_end(g, n, &l);
	cg_cell_load(g, R0, c + 32);
	return cg_int_result(g, n, R0);
}

/* ---- dispatch ---- */

/* The emitter of each function a call compiles to code; the others are
 * the actions and the kernel subroutines of cg.c, cg_agg.c, cg_speculation.c
 * and cg_mem.c, and the functions dscope refuses (their rows say why). */
static struct val (*const emitters[DF_NFUNCS])(struct cg *g, struct node *n) = {
	[DF_ALLOCA] = cg_alloca,
	[DF_BASENAME] = cg_basename,	[DF_BCOPY] = cg_bcopy,
	[DF_CLEANPATH] = cg_cleanpath,	[DF_COPYINTO] = cg_copyinto,
	[DF_COPYIN] = cg_copyin,
	[DF_COPYINSTR] = cg_copyinstr,	[DF_DIRNAME] = cg_basename,
	[DF_GETMAJOR] = do_devpart,	[DF_GETMINOR] = do_devpart,
	[DF_HTONL] = do_byteorder,	[DF_HTONLL] = do_byteorder,
	[DF_HTONS] = do_byteorder,	[DF_INDEX] = cg_index,
	[DF_INET_NTOA] = cg_inet_ntoa,	[DF_INET_NTOA6] = cg_inet_ntoa6,
	[DF_INET_NTOP] = cg_inet_ntop,	[DF_LINK_NTOP] = cg_link_ntop,
	[DF_LLTOSTR] = cg_lltostr,
	[DF_NTOHL] = do_byteorder,	[DF_NTOHLL] = do_byteorder,
	[DF_NTOHS] = do_byteorder,	[DF_PROGENYOF] = do_progenyof,
	[DF_RAND] = do_rand,		[DF_RINDEX] = cg_index,
	[DF_RAISE] = do_raise,		[DF_STOP] = do_raise,
	[DF_CHILL] = do_chill,
	[DF_COPYOUT] = cg_copyout,
	[DF_COPYOUTSTR] = do_copyoutstr,
	[DF_STACK] = cg_stack,		[DF_USTACK] = cg_ustack,
	[DF_SYM] = cg_ksym,		[DF_FUNC] = cg_ksym,
	[DF_MOD] = cg_ksym,		[DF_USYM] = cg_usym,
	[DF_UFUNC] = cg_usym,		[DF_UMOD] = cg_usym,
	[DF_UADDR] = cg_usym,		[DF_CGROUP_PATH] = cg_ksym,
	[DF_SPECULATION] = cg_speculation,
	[DF_STRCHR] = cg_strchr,	[DF_STRJOIN] = cg_strjoin,
	[DF_STRLEN] = cg_strlen,	[DF_STRRCHR] = cg_strchr,
	[DF_STRSTR] = cg_strstr,	[DF_STRTOK] = cg_strtok,
	[DF_SUBSTR] = cg_substr,
	[DF_TOLOWER] = cg_case,		[DF_TOUPPER] = cg_case,
};

struct val cg_subr_call(struct cg *g, struct node *n)
{
	const struct dfunc_row *row = dfunc_row(n->fn);

	if (emitters[n->fn])	/* a stack the clause records is kept as
				 * the clause took it */
		return cg_record_kept_stack(g, n, emitters[n->fn](g, n));
	if (row && row->support == DFS_REFUSED)
		diag_fail(g->d, n->line, n->col, row->tag, "%s", row->note);
	diag_fail(g->d, n->line, n->col, "D_UNSUPPORTED",
		  "%s( ) cannot be compiled yet", n->str);
}
