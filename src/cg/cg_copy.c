/*
 * cg_copy.c -- memory in and out of a clause: copyin, copyinstr and
 * copyinto from the process (faulting pages in where the program may
 * sleep), alloca()'s scratch memory with its bounds checks, bcopy, the
 * stores into it, and print() and tracemem(), which copy memory into the
 * record.
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
		cg_kfunc_call(g, n, "bpf_copy_from_user_str");
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
struct val cg_copyinstr(struct cg *g, struct node *n)
{
	struct val addr = cg_expr(g, n->args.v[0]);
	struct val max = n->args.n > 1 ? cg_expr(g, n->args.v[1]) : addr;
	struct val d = cg_str_temp(g, n, n->type.size);
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
	cg_fault_if_neg(g, addr.slot);
	return d;
}


/* copyin(addr, size): the bytes land in a scratch temp whose address is
 * the value.  The temp lives until the end of
 * the statement. */
#define COPYIN_MAX 256
struct val cg_copyin(struct cg *g, struct node *n)
{
	struct val addr = cg_expr(g, n->args.v[0]);
	struct val size = cg_expr(g, n->args.v[1]);
	const struct node *sz = n->args.v[1];
	uint32_t cap = sz->kind == N_INT && sz->ival > 0 && sz->ival <= 4096
			       ? (uint32_t)sz->ival : COPYIN_MAX;
	uint32_t d = cg_temp_new(g, n, cap);
	int16_t slot = cg_slot_new(g, n);

	cg_load_slot(g, R2, size.slot);
	cg_clamp_range(g, R2, 0, (int32_t)cap);
	cg_load_slot(g, R3, addr.slot);
	cg_scratch_ptr(g, R1, d);
	emit_call(&g->e, cg_user_read_func(g));
	cg_fault_if_neg(g, addr.slot);
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

struct val cg_copyout(struct cg *g, struct node *n)
{
	struct val buf = cg_expr_addr(g, n->args.v[0]);
	struct val uaddr = cg_expr(g, n->args.v[1]);
	struct val size = cg_expr(g, n->args.v[2]);
	const struct node *sz = n->args.v[2];
	uint32_t cap = sz->kind == N_INT && sz->ival > 0 && sz->ival <= 4096
			       ? (uint32_t)sz->ival : COPYIN_MAX;
	uint32_t d = cg_temp_new(g, n, cap);
	int done = emit_new_label(&g->e), too_big = emit_new_label(&g->e);
	int written = emit_new_label(&g->e);

	copyout_len(g, R2, size.slot, cap, done, too_big);
	cg_load_slot(g, R3, buf.slot);
	cg_scratch_ptr(g, R1, d);
	cg_call_or_fault(g, BPF_FUNC_probe_read_kernel, buf.slot);
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
struct val cg_alloca(struct cg *g, struct node *n)
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

	store_place(g, n, addr.slot, size);
	emit_mov_reg(&g->e, R1, R0);
	emit_mov_imm(&g->e, R2, (int32_t)size);
	cg_scratch_ptr(g, R3, v.off);
	cg_call_or_fault(g, BPF_FUNC_probe_read_kernel, addr.slot);
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

struct val cg_bcopy(struct cg *g, struct node *n)
{
	struct val src = cg_expr_addr(g, n->args.v[0]);
	struct val dst = cg_expr(g, n->args.v[1]);
	struct val size = cg_expr(g, n->args.v[2]);

	copy_to_alloca(g, n, src, size, dst, false);
	return size;
}

struct val cg_copyinto(struct cg *g, struct node *n)
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
	switch (n->fn) {
	case DF_PRINT:
		do_print(g, n);
		return true;
	case DF_TRACEMEM:
		do_tracemem(g, n);
		return true;
	default:
		return false;
	}
}
