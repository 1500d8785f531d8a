/*
 * cg_expr.c -- D expressions: comparisons (strings word by word),
 * logical and arithmetic operators at 64 bits (narrowed where kept, as
 * cg.c's opening comment says), ?:, casts, inlines, and the dispatch of
 * every expression node (cg_expr), with its address form (cg_expr_addr).
 */
#include <string.h>

#include "cg/cg_impl.h"
#include "kern/ktypes.h"
#include "front/sema.h"
#include "prov/catalog.h"
#include "prov/net.h"
#include "prov/fbt.h"
#include "kern/kcaps.h"
#include "spec/options.h"
#include "spec/record.h"

/*
 * String comparison, 8 bytes at a time: both sides are NUL-padded, so the
 * first differing word decides, and byte-swapping it to big-endian makes an
 * unsigned compare lexicographic.  Leaves -1, 0 or 1 in r0.
 */
/* reg = 0 if it is the first word of "" (a NULL string's mark gone):
 *	if (!(reg & 0xff)) reg = 0 */
static void drop_null_mark(struct cg *g, int reg)
{
	int keep = emit_new_label(&g->e);

	emit_jmp_imm(&g->e, BPF_JSET, reg, 0xff, keep);
	emit_mov_imm(&g->e, reg, 0);
	emit_label(&g->e, keep);
}

/* the string at r9 + off, zeroed, becomes NULL */
void cg_str_set_null(struct cg *g, uint32_t off)
{
	emit_store_imm(&g->e, 1, R9, (int16_t)(off + 1), STR_NULL_MARK);
}

/* the string at r9 + off (in a key) without a NULL string's mark, so that
 * NULL and "" are one key, as they compare equal */
void cg_str_unmark(struct cg *g, uint32_t off)
{
	emit_load(&g->e, 8, R0, R9, (int16_t)off);
	drop_null_mark(g, R0);
	emit_store(&g->e, 8, R9, (int16_t)off, R0);
}

void cg_strcmp_words(struct cg *g, struct val a, struct val b)
{
	uint32_t n = a.size > b.size ? a.size : b.size;
	int diff = emit_new_label(&g->e), done = emit_new_label(&g->e);
	int less = emit_new_label(&g->e);

	for (uint32_t i = 0; i < n; i += 8) {
		if (i < a.size)
			emit_load(&g->e, 8, R1, R9, (int16_t)(a.off + i));
		else
			emit_mov_imm(&g->e, R1, 0);
		if (i < b.size)
			emit_load(&g->e, 8, R2, R9, (int16_t)(b.off + i));
		else
			emit_mov_imm(&g->e, R2, 0);
		if (i == 0) {			/* NULL is "" here, as in DTrace */
			drop_null_mark(g, R1);
			drop_null_mark(g, R2);
		}
		emit_jmp_reg(&g->e, BPF_JNE, R1, R2, diff);
	}
	emit_mov_imm(&g->e, R0, 0);
	emit_ja(&g->e, done);
	emit_label(&g->e, diff);
	emit_insn(&g->e, (struct bpf_insn){ .code = BPF_ALU | BPF_END | BPF_TO_BE,
					    .dst_reg = R1, .imm = 64 });
	emit_insn(&g->e, (struct bpf_insn){ .code = BPF_ALU | BPF_END | BPF_TO_BE,
					    .dst_reg = R2, .imm = 64 });
	emit_jmp_reg(&g->e, BPF_JLT, R1, R2, less);
	emit_mov_imm(&g->e, R0, 1);
	emit_ja(&g->e, done);
	emit_label(&g->e, less);
	emit_mov_imm(&g->e, R0, -1);
	emit_label(&g->e, done);
}

static int cmp_jump(int op, bool is_signed)
{
	switch (op) {
	case OP_EQ: return BPF_JEQ;
	case OP_NE: return BPF_JNE;
	case '<': return is_signed ? BPF_JSLT : BPF_JLT;
	case '>': return is_signed ? BPF_JSGT : BPF_JGT;
	case OP_LE: return is_signed ? BPF_JSLE : BPF_JLE;
	default: return is_signed ? BPF_JSGE : BPF_JGE;
	}
}

/* slot = (r1 op r2) ? 1 : 0 */
static void set_cond(struct cg *g, int16_t slot, int jop)
{
	int yes = emit_new_label(&g->e), done = emit_new_label(&g->e);

	emit_jmp_reg(&g->e, jop, R1, R2, yes);
	emit_mov_imm(&g->e, R0, 0);
	emit_ja(&g->e, done);
	emit_label(&g->e, yes);
	emit_mov_imm(&g->e, R0, 1);
	emit_label(&g->e, done);
	cg_store_slot(g, slot, R0);
}

/*
 * C's usual conversions decide whether an integer comparison is signed:
 * char and short promote to int; of two types of one size the result is
 * unsigned if either is (int and unsigned int: unsigned); otherwise the
 * larger type's signedness wins (a 64-bit signed type holds every
 * unsigned int).
 */
static bool compare_signed(const struct node *n)
{
	const struct dtype *t = &n->a->type, *u = &n->b->type;
	uint32_t ts = t->size < 4 ? 4 : t->size, us = u->size < 4 ? 4 : u->size;
	bool tsg = t->size < 4 || t->is_signed, usg = u->size < 4 || u->is_signed;

	if (ts == us)
		return tsg && usg;
	return ts > us ? tsg : usg;
}

/*
 * uregs[i]: the thread's user registers, as the kernel saved them when it
 * entered (task_pt_regs: the pid provider's own registers, or a system
 * call's caller's); indices 21-25 are task->thread's segment and trap
 * fields, as in Oracle's port:
 *	r0 = bpf_task_pt_regs(bpf_get_current_task_btf())
 *	v = *(u64 *)(r0 + 8 * i)
 * or	v = *(bpf_get_current_task_btf() + offsetof(task_struct, thread.m))
 * Before 5.15 (kcaps.h: task_pt_regs) both are read with
 * bpf_get_current_task and probe_read_kernel; the registers lie where
 * x86-64's task_pt_regs() finds them, at the top of the thread's kernel
 * stack of THREAD_SIZE (16 KiB, without KASAN):
 *	v = *(u64 *)(task->stack + THREAD_SIZE - sizeof(pt_regs) + 8 * i)
 */
static struct val uregs_read(struct cg *g, struct node *n, int16_t slot,
			     const char *path)
{
	struct ktype_field stack, f;

	if (ktype_field("task_struct.stack", &stack) < 0 ||
	    (path && (ktype_field(path, &f) < 0 || f.nhops != 1)))
		diag_fail(g->d, n->line, n->col, "D_KTYPE",
			  "uregs[ ]: kernel type information (BTF) lacks %s",
			  path ? path : "task_struct.stack");
	emit_call(&g->e, BPF_FUNC_get_current_task);
	emit_mov_reg(&g->e, R3, R0);
	if (path) {
		cg_kread(g, slot, (int)f.size, (int32_t)f.off[0]);
		return cg_int_val(slot);
	}
	cg_kread(g, slot, 8, (int32_t)stack.off[0]);
	emit_mov_reg(&g->e, R3, R0);
	cg_kread(g, slot, 8, THREAD_SIZE - PT_REGS_SIZE + 8 * (int32_t)n->sym);
	return cg_int_val(slot);
}

static struct val uregs(struct cg *g, struct node *n)
{
	static const char *const thread[] = { "ds", "es", "fsbase", "gsbase",
					      "trap_nr" };
	int16_t slot = cg_slot_new(g, n);

	if (!kcaps_has(KCAP_TASK_PT_REGS))
		return uregs_read(g, n, slot, n->sym <= 20 ? NULL :
				  arena_printf(g->a, "task_struct.thread.%s",
					       thread[n->sym - 21]));
	emit_call(&g->e, BPF_FUNC_get_current_task_btf);
	if (n->sym <= 20) {
		emit_mov_reg(&g->e, R1, R0);
		emit_call(&g->e, BPF_FUNC_task_pt_regs);
		emit_load(&g->e, 8, R1, R0, (int16_t)(8 * n->sym));
	} else {
		const char *path = arena_printf(g->a, "task_struct.thread.%s",
						thread[n->sym - 21]);
		struct ktype_field f;

		if (ktype_field(path, &f) < 0 || f.nhops != 1)
			diag_fail(g->d, n->line, n->col, "D_KTYPE",
				  "uregs[ ]: kernel type information (BTF) lacks %s",
				  path);
		emit_load(&g->e, (int)f.size, R1, R0, (int16_t)f.off[0]);
	}
	cg_store_slot(g, slot, R1);
	return cg_int_val(slot);
}

static struct val compare(struct cg *g, struct node *n)
{
	int16_t slot = cg_slot_new(g, n);
	struct val a = cg_expr(g, n->a), b = cg_expr(g, n->b);

	if (a.str != b.str) {		/* s == NULL, s != NULL */
		emit_load(&g->e, 1, R1, R9, (int16_t)((a.str ? a : b).off + 1));
		emit_mov_imm(&g->e, R2, STR_NULL_MARK);
		set_cond(g, slot, cmp_jump(n->op, false));
	} else if (a.str) {
		cg_strcmp_words(g, a, b);
		emit_mov_reg(&g->e, R1, R0);
		emit_mov_imm(&g->e, R2, 0);
		set_cond(g, slot, cmp_jump(n->op, true));
	} else {
		cg_load_slot(g, R1, a.slot);
		cg_load_slot(g, R2, b.slot);
		set_cond(g, slot, cmp_jump(n->op, compare_signed(n)));
	}
	g->sp = slot;
	return cg_int_val(slot);
}

/* The jump taken when a comparison is false. */
static int cmp_jump_false(int op, bool is_signed)
{
	static const int neg[] = {
		[OP_EQ] = OP_NE, [OP_NE] = OP_EQ, ['<'] = OP_GE, ['>'] = OP_LE,
		[OP_LE] = '>', [OP_GE] = '<',
	};

	return cmp_jump(neg[op], is_signed);
}

static bool is_int_compare(const struct node *n)
{
	bool cmp = n->op == OP_EQ || n->op == OP_NE || n->op == '<' ||
		   n->op == '>' || n->op == OP_LE || n->op == OP_GE;

	return n->kind == N_BINARY && cmp && n->a->type.kind == T_INT &&
	       n->b->type.kind == T_INT;
}

/*
 * If the last instruction stored a register into slot and no jump lands
 * after it, take the store back and return the register, which still
 * holds the value; else -1.  For a value read only once, at once:
 *	*(u64 *)(fp + slot) = r0; r1 = *(u64 *)(fp + slot)  ->  (r0)
 */
static int unspill(struct cg *g, int16_t slot)
{
	const struct bpf_insn *last = g->e.n ? &g->e.insns[g->e.n - 1] : NULL;

	if (!last || last->code != (BPF_STX | BPF_MEM | BPF_DW) ||
	    last->dst_reg != R10 || last->off != slot)
		return -1;
	for (int i = 0; i < g->e.nlabels; i++)
		if (g->e.label_pos[i] == g->e.n)
			return -1;
	g->e.n--;
	return last->src_reg;
}

/*
 * A predicate that is an integer comparison jumps on it, rather than
 * making 0 or 1 and testing that; against a constant that fits in 32 bits
 * the constant is the jump's immediate (sign-extended by BPF, as the
 * constant's own 64-bit value is):
 *
 *	r1 = a; if (!(r1 op imm)) goto clause_end
 */
bool cg_predicate_jump(struct cg *g, struct node *pred)
{
	struct val a, b;
	int jop;

	if (!is_int_compare(pred))
		return false;
	jop = cmp_jump_false(pred->op, compare_signed(pred));
	a = cg_expr(g, pred->a);
	if (pred->b->kind == N_INT && pred->b->ival >= INT32_MIN &&
	    pred->b->ival <= INT32_MAX) {
		int r = unspill(g, a.slot);

		if (r < 0)
			cg_load_slot(g, r = R1, a.slot);
		emit_jmp_imm(&g->e, jop, r, (int32_t)pred->b->ival, g->clause_end);
		return true;
	}
	b = cg_expr(g, pred->b);
	cg_load_slot(g, R1, a.slot);
	cg_load_slot(g, R2, b.slot);
	emit_jmp_reg(&g->e, jop, R1, R2, g->clause_end);
	return true;
}

/* r0 = (r0 != 0) */
static void to_bool(struct cg *g)
{
	int done = emit_new_label(&g->e);

	emit_jmp_imm(&g->e, BPF_JEQ, R0, 0, done);
	emit_mov_imm(&g->e, R0, 1);
	emit_label(&g->e, done);
}

/* && and || with C's short circuit; ^^ evaluates both sides */
static struct val logical(struct cg *g, struct node *n)
{
	int16_t slot = cg_slot_new(g, n);
	int done = emit_new_label(&g->e);
	struct val a = cg_expr(g, n->a);

	cg_load_slot(g, R0, a.slot);
	to_bool(g);
	cg_store_slot(g, slot, R0);
	if (n->op == OP_LAND)
		emit_jmp_imm(&g->e, BPF_JEQ, R0, 0, done);	/* false && ... */
	else if (n->op == OP_LOR)
		emit_jmp_imm(&g->e, BPF_JNE, R0, 0, done);	/* true || ... */
	struct val b = cg_expr(g, n->b);

	cg_load_slot(g, R0, b.slot);
	to_bool(g);
	if (n->op == OP_LXOR) {
		cg_load_slot(g, R1, slot);
		emit_alu_reg(&g->e, BPF_XOR, R0, R1);
	}
	cg_store_slot(g, slot, R0);
	emit_label(&g->e, done);
	g->sp = slot;
	return cg_int_val(slot);
}

/* r0 = r0 / r1 or r0 % r1, signed: natively where the kernel can, else
 * from unsigned division (r1 and r2 clobbered) */
static void signed_div(struct cg *g, int op)
{
	if (load_has_sdiv())
		emit_sdiv_reg(&g->e, op, R0, R1);
	else
		emit_sdiv_soft(&g->e, op, R0, R1, R2);
}

void cg_alu_op(struct cg *g, const struct node *n, int op, bool is_signed)
{
	switch (op) {
	case '+': emit_alu_reg(&g->e, BPF_ADD, R0, R1); break;
	case '-': emit_alu_reg(&g->e, BPF_SUB, R0, R1); break;
	case '*': emit_alu_reg(&g->e, BPF_MUL, R0, R1); break;
	case '&': emit_alu_reg(&g->e, BPF_AND, R0, R1); break;
	case '|': emit_alu_reg(&g->e, BPF_OR, R0, R1); break;
	case '^': emit_alu_reg(&g->e, BPF_XOR, R0, R1); break;
	case OP_SHL: emit_alu_reg(&g->e, BPF_LSH, R0, R1); break;
	case OP_SHR:
		emit_alu_reg(&g->e, is_signed ? BPF_ARSH : BPF_RSH, R0, R1);
		break;
	case '/':
	case '%': {
		/* division by zero is a fault (BPF itself would yield 0) */
		int ok = emit_new_label(&g->e);
		int bop = op == '/' ? BPF_DIV : BPF_MOD;

		emit_jmp_imm(&g->e, BPF_JNE, R1, 0, ok);
		cg_fault(g, FLT_DIVZERO, -1);
		emit_label(&g->e, ok);

		if (is_signed)
			signed_div(g, bop);
		else
			emit_alu_reg(&g->e, bop, R0, R1);
		break;
	}
	default:
		diag_fail(g->d, n->line, n->col, "D_UNSUPPORTED",
			  "operator %d is not supported", op);
	}
}

static struct val arith(struct cg *g, struct node *n)
{
	int16_t slot = cg_slot_new(g, n);
	struct val a = cg_expr(g, n->a), b = cg_expr(g, n->b);

	cg_load_slot(g, R0, a.slot);
	cg_load_slot(g, R1, b.slot);
	if (n->type.kind == T_PTR && n->ival > 1)	/* p + i: scale i */
		emit_alu_imm(&g->e, BPF_MUL,
			     n->a->type.kind == T_PTR ? R1 : R0, (int32_t)n->ival);
	cg_alu_op(g, n, n->op, n->type.is_signed);
	if (n->ival < -1) {	/* p - q: in elements */
		emit_mov_imm(&g->e, R1, (int32_t)-n->ival);
		signed_div(g, BPF_DIV);
	}
	cg_store_slot(g, slot, R0);	/* not narrowed: see cg_expr */
	g->sp = slot;
	return cg_int_val(slot);
}

static struct val binary(struct cg *g, struct node *n)
{
	switch (n->op) {
	case OP_EQ: case OP_NE: case '<': case '>': case OP_LE: case OP_GE:
		return compare(g, n);
	case OP_LAND: case OP_LOR: case OP_LXOR:
		return logical(g, n);
	case ',':
		cg_expr(g, n->a);
		return cg_expr(g, n->b);
	default:
		return arith(g, n);
	}
}

static struct val unary(struct cg *g, struct node *n)
{
	if (n->op == '*')
		return cg_mem_read(g, n);
	if (n->op == '&')
		return n->a->symkind == SYM_NONE ? cg_mem_addr(g, n->a)
						 : cg_var_addr(g, n->a);
	int16_t slot = cg_slot_new(g, n);
	struct val a = cg_expr(g, n->a);

	cg_load_slot(g, R0, a.slot);
	switch (n->op) {
	case '-':
		emit_alu_imm(&g->e, BPF_NEG, R0, 0);
		break;
	case '~':
		emit_alu_imm(&g->e, BPF_XOR, R0, -1);
		break;
	case '!': {
		int zero = emit_new_label(&g->e), done = emit_new_label(&g->e);

		emit_jmp_imm(&g->e, BPF_JEQ, R0, 0, zero);
		emit_mov_imm(&g->e, R0, 0);
		emit_ja(&g->e, done);
		emit_label(&g->e, zero);
		emit_mov_imm(&g->e, R0, 1);
		emit_label(&g->e, done);
		break;
	}
	default:	/* unary + */
		break;
	}
	cg_store_slot(g, slot, R0);	/* not narrowed: see cg_expr */
	g->sp = slot;
	return cg_int_val(slot);
}

static struct val ternary(struct cg *g, struct node *n)
{
	int other = emit_new_label(&g->e), done = emit_new_label(&g->e);
	struct val r = { .str = n->type.kind == T_STRING };
	struct val c;

	if (r.str) {
		r.size = cg_round8(n->type.size);
		r.off = cg_temp_new(g, n, r.size);
	} else {
		r.slot = cg_slot_new(g, n);
	}
	int16_t sp = g->sp;
	uint32_t tmp = g->tmp;

	c = cg_expr(g, n->a);
	cg_load_slot(g, R0, c.slot);
	emit_jmp_imm(&g->e, BPF_JEQ, R0, 0, other);
	for (int i = 0; i < 2; i++) {
		struct node *arm = i == 0 ? n->b : n->c;
		struct val v = cg_expr(g, arm);

		if (r.str && !v.str) {		/* a null pointer: NULL */
			cg_zero_words(g, R9, r.off, r.size);
			cg_str_set_null(g, r.off);
		} else if (r.str) {
			cg_copy_words(g, cg_is_str(&n->type), R9, r.off, r.size,
				      R9, v.off, v.size);
		} else {
			cg_load_slot(g, R0, v.slot);
			cg_normalize(g, R0, &n->type);
			cg_store_slot(g, r.slot, R0);
		}
		g->sp = sp;
		g->tmp = tmp;
		if (i == 0) {
			emit_ja(&g->e, done);
			emit_label(&g->e, other);
		}
	}
	emit_label(&g->e, done);
	return r;
}

/* store v into global variable sym, converting to its type */
static struct val cast(struct cg *g, struct node *n)
{
	struct val v = cg_expr(g, n->a);

	if (v.str || n->type.kind == T_STRUCT || n->type.kind == T_ARRAY)
		return v;	/* to its own type: the same bytes */
	cg_load_slot(g, R0, v.slot);
	cg_normalize(g, R0, &n->type);
	cg_store_slot(g, v.slot, R0);
	return v;
}

/* an inline's expression, converted to the inline's declared type */
static struct val inline_value(struct cg *g, struct node *n)
{
	struct val v = cg_expr(g, n->a);

	if (!v.str) {
		cg_load_slot(g, R0, v.slot);
		cg_normalize(g, R0, &n->type);
		cg_store_slot(g, v.slot, R0);
	}
	return v;
}

/* The kernel loads no program over 1M instructions (BPF_COMPLEXITY_LIMIT_
 * INSNS); inlines using inlines ("inline int a2 = a1 + a1;" ...) expand
 * exponentially, and without a cap a 1 KiB script took gigabytes and
 * minutes to compile (found by the fuzzer, tests/fuzz). */
#define CG_MAX_INSNS 1000000

struct val cg_expr(struct cg *g, struct node *n)
{
	diag_check_stack(g->d, n->line, n->col);
	if (g->e.n > CG_MAX_INSNS)
		diag_fail(g->d, n->line, n->col, "D_PROG_SIZE",
			  "program exceeds the kernel's limit of %d BPF "
			  "instructions", CG_MAX_INSNS);
	switch (n->kind) {
	case N_INT: {
		int16_t slot = cg_slot_new(g, n);

		emit_ld_imm64(&g->e, R0, (uint64_t)n->ival);
		cg_store_slot(g, slot, R0);
		return cg_int_val(slot);
	}
	case N_STR:
		return cg_string_const(g, n, n->str, n->type.size);
	case N_IDENT:
		if (n->symkind == SYM_BUILTIN)
			return cg_builtin(g, n);
		if (n->symkind == SYM_INLINE)
			return inline_value(g, n);
		return cg_var_read(g, n);
	case N_MEMBER:
		if (n->symkind == SYM_DVAR || n->symkind == SYM_STATIC)
			return cg_var_read(g, n);
		return cg_mem_read(g, n);
	case N_STRINGOF:
		return cg_stringof(g, n);
	case N_INDEX: {	/* args[N], an associative array, or memory */
		if (n->symkind == SYM_DVAR || n->symkind == SYM_STATIC)
			return cg_var_read(g, n);
		if (n->symkind == SYM_UREGS)
			return uregs(g, n);
		if (n->symkind != SYM_ARGS)
			return cg_mem_read(g, n);
		int16_t slot = cg_slot_new(g, n);

		cg_arg_value(g, slot, n->sym);
		cg_load_slot(g, R0, slot);
		cg_normalize(g, R0, &n->type);
		cg_store_slot(g, slot, R0);
		return cg_int_val(slot);
	}
	case N_UNARY:
		return unary(g, n);
	case N_BINARY:
		return binary(g, n);
	case N_TERNARY:
		return ternary(g, n);
	case N_ASSIGN:
		return cg_var_assign(g, n);
	case N_INCDEC:
		return cg_var_incdec(g, n);
	case N_CAST:
		return cast(g, n);
	case N_XLATE:	/* taken whole: expanded (sema_xlate.c) */
		return n->ival ? cg_xlate_expand(g, n) : cg_expr(g, n->a);
	case N_CALL: {
		struct val v;

		if (cg_kernel_subr(g, n, &v))
			return v;
		return cg_subr_call(g, n);
	}
	default:
		diag_fail(g->d, n->line, n->col, "D_UNSUPPORTED",
			  "expression kind %d cannot be compiled yet", n->kind);
	}
}

/* slot = the pointer in reg as an integer: spilled and read back through
 * a helper, which the verifier takes as a number -- one that arithmetic
 * with any other number may change, as D's pointers are */
void cg_ptr_number(struct cg *g, const struct node *n, int16_t slot, int reg)
{
	int16_t tmp = cg_slot_new(g, n);

	cg_store_slot(g, tmp, reg);
	cg_fp_ptr(g, R1, slot);
	emit_mov_imm(&g->e, R2, 8);
	cg_fp_ptr(g, R3, tmp);
	emit_call(&g->e, BPF_FUNC_probe_read_kernel);
}

/* The kernel address of scratch offset off, as an integer. */
void cg_scratch_addr(struct cg *g, const struct node *n, int16_t slot,
		     uint32_t off)
{
	cg_scratch_ptr(g, R0, off);
	cg_ptr_number(g, n, slot, R0);
}

struct val cg_expr_addr(struct cg *g, struct node *n)
{
	struct val v = cg_expr(g, n);
	int16_t slot;

	if (!v.str)
		return v;
	slot = cg_slot_new(g, n);
	cg_scratch_addr(g, n, slot, v.off);
	return cg_int_val(slot);
}
