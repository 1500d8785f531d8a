/*
 * emit.c -- one function per BPF instruction form, plus labels.
 * See emit.h.  The buffers grow in the compile's arena, as everything else
 * the code generator builds: an error (diag_fail() longjmps out of cg)
 * then leaves nothing behind to free -- with malloc'd buffers it leaked
 * them, found by the fuzzer (tests/fuzz).
 */
#include "emit.h"

#include <stdbool.h>
#include <string.h>

void emit_init(struct emit *e, struct arena *a)
{
	memset(e, 0, sizeof(*e));
	e->a = a;
}

void emit_insn(struct emit *e, struct bpf_insn insn)
{
	e->insns = arena_grow(e->a, e->insns, e->n, &e->cap, sizeof(insn));
	e->insns[e->n++] = insn;
}

static struct bpf_insn mk(uint8_t code, int dst, int src, int16_t off, int32_t imm)
{
	struct bpf_insn i = { .code = code, .dst_reg = dst, .src_reg = src,
			      .off = off, .imm = imm };
	return i;
}

int emit_new_label(struct emit *e)
{
	e->label_pos = arena_grow(e->a, e->label_pos, e->nlabels,
				  &e->label_cap, sizeof(int));
	e->label_pos[e->nlabels] = -1;
	return e->nlabels++;
}

void emit_label(struct emit *e, int label)
{
	e->label_pos[label] = e->n;
}

/* the next instruction refers to label: patched by emit_resolve */
static void add_fixup(struct emit *e, int label)
{
	e->fixups = arena_grow(e->a, e->fixups, e->nfixups, &e->fixup_cap,
			       sizeof(*e->fixups));
	e->fixups[e->nfixups].insn = e->n;
	e->fixups[e->nfixups].label = label;
	e->nfixups++;
}

static void jump_to(struct emit *e, struct bpf_insn insn, int label)
{
	add_fixup(e, label);
	emit_insn(e, insn);
}

/* Whether the instruction at is patched in imm, not off: a subprogram's
 * address or a call of it, whose 32 bits reach any label. */
static bool fixup_imm(const struct emit *e, int at)
{
	return e->insns[at].code == (BPF_LD | BPF_DW | BPF_IMM) ||
	       e->insns[at].code == (BPF_JMP | BPF_CALL);
}

struct emit_block emit_cut(struct emit *e, int start)
{
	struct emit_block b = { .n = e->n - start };
	int cap = 0, kept = 0;

	b.insns = arena_alloc(e->a, sizeof(*b.insns) * (size_t)(b.n + 1));
	memcpy(b.insns, e->insns + start, sizeof(*b.insns) * (size_t)b.n);
	for (int l = 0; l < e->nlabels; l++)
		if (e->label_pos[l] >= start) {
			*ARENA_PUSH(e->a, b.labels, b.nlabels, cap) =
				(struct emit_fixup){ e->label_pos[l] - start, l };
			e->label_pos[l] = -1;
		}
	cap = 0;
	for (int i = 0; i < e->nfixups; i++) {
		struct emit_fixup f = e->fixups[i];

		if (f.insn >= start) {
			f.insn -= start;
			*ARENA_PUSH(e->a, b.fixups, b.nfixups, cap) = f;
		} else {
			e->fixups[kept++] = f;
		}
	}
	e->nfixups = kept;
	e->n = start;
	return b;
}

int emit_paste(struct emit *e, const struct emit_block *b)
{
	int at = e->n;

	for (int i = 0; i < b->n; i++)
		emit_insn(e, b->insns[i]);
	for (int i = 0; i < b->nlabels; i++)
		e->label_pos[b->labels[i].label] = at + b->labels[i].insn;
	for (int i = 0; i < b->nfixups; i++) {
		e->fixups = arena_grow(e->a, e->fixups, e->nfixups, &e->fixup_cap,
				       sizeof(*e->fixups));
		e->fixups[e->nfixups++] = (struct emit_fixup){
			at + b->fixups[i].insn, b->fixups[i].label };
	}
	return at;
}

/*
 * Far jumps.  A BPF jump reaches 32767 instructions either way (gotol,
 * with 32 bits, is 6.4's, so not on every kernel).  A long clause (a
 * peer test casts 800 expressions in one BEGIN) jumps from its start to
 * its end past that.  Such a jump is sent to a trampoline, an
 * unconditional jump to its label, on an island put in the stream near
 * enough: the island's first instruction jumps over it, so code falling
 * through does not notice it.  A trampoline that is still too far is
 * itself a far jump, bridged by a later island.  "Too far" is well short
 * of 32767: the verifier grows the program as it rewrites it (inlined
 * helpers, zero extension, context accesses) and then fails a jump its
 * growth has put out of reach ("cannot be patched due to 16-bit range"),
 * so a jump may span a quarter of that.  Islands go only where
 * they split no ld_imm64 pair, and only in [0, end): callbacks after the
 * main program are subprograms a trampoline may not jump into.
 */
#define JUMP_MAX 8191		/* a quarter of 32767, for the verifier's growth */
#define ISLAND_REACH 7000	/* less than JUMP_MAX: room for the island */

static bool fixup_far(const struct emit *e, const struct emit_fixup *f)
{
	int to = e->label_pos[f->label], off = to - f->insn - 1;

	return to >= 0 && !fixup_imm(e, f->insn) &&
	       (off > JUMP_MAX || off < -JUMP_MAX - 1);
}

/* Open a gap of n instructions at p: what was at p and after moves. */
static void open_gap(struct emit *e, int p, int n)
{
	for (int i = 0; i < n; i++)
		emit_insn(e, mk(0, 0, 0, 0, 0));
	memmove(e->insns + p + n, e->insns + p,
		sizeof(*e->insns) * (size_t)(e->n - n - p));
	for (int l = 0; l < e->nlabels; l++)
		if (e->label_pos[l] >= p)
			e->label_pos[l] += n;
	for (int i = 0; i < e->nfixups; i++)
		if (e->fixups[i].insn >= p)
			e->fixups[i].insn += n;
}

/* Does control fall from insn p - 1 into p?  Not after ja or exit, where
 * an island's jump over itself would be unreachable, which the verifier
 * refuses. */
static bool falls_into(const struct emit *e, int p)
{
	uint8_t code = p ? e->insns[p - 1].code : 0;

	return code != (BPF_JMP | BPF_JA) && code != (BPF_JMP | BPF_EXIT);
}

/* An island at p, a trampoline for each far jump that passes p. */
static int island(struct emit *e, int p)
{
	int nfar = 0, first, skip = falls_into(e, p);

	for (int i = 0; i < e->nfixups; i++) {
		const struct emit_fixup *f = &e->fixups[i];
		int to = e->label_pos[f->label];

		if (fixup_far(e, f) && (f->insn < p) == (to >= p))
			nfar++;
	}
	open_gap(e, p, nfar + skip);
	first = p + skip;
	for (int i = 0, k = 0; i < e->nfixups && k < nfar; i++) {
		struct emit_fixup *f = &e->fixups[i];
		int to = e->label_pos[f->label], tramp = first + k;

		if ((f->insn >= p && f->insn < first + nfar) || !fixup_far(e, f) ||
		    (f->insn < p) != (to >= first + nfar))
			continue;
		int label = emit_new_label(e);

		e->label_pos[label] = tramp;
		e->insns[tramp] = mk(BPF_JMP | BPF_JA, 0, 0, 0, 0);
		e->fixups = arena_grow(e->a, e->fixups, e->nfixups, &e->fixup_cap,
				       sizeof(*e->fixups));
		f = &e->fixups[i];	/* the array may have moved */
		e->fixups[e->nfixups++] = (struct emit_fixup){ tramp, f->label };
		f->label = label;
		k++;
	}
	/* The jump over the island goes to a label, as every other does: a
	 * later island may open among these trampolines (after a ja it has
	 * no jump of its own), and a fixed offset would then land on one of
	 * them, leaving the code after the island unreachable (5.10's
	 * verifier refused tst.xlate-whole's program so). */
	if (skip) {
		int over = emit_new_label(e);

		e->label_pos[over] = first + nfar;
		e->insns[p] = mk(BPF_JMP | BPF_JA, 0, 0, 0, 0);
		e->fixups = arena_grow(e->a, e->fixups, e->nfixups, &e->fixup_cap,
				       sizeof(*e->fixups));
		e->fixups[e->nfixups++] = (struct emit_fixup){ p, over };
	}
	return nfar + skip;
}

/* From want, stepping back towards the jump, where an island splits no
 * ld_imm64 pair, before stopping past lo or hi. */
static int island_place(const struct emit *e, int want, int step, int lo,
			int hi)
{
	for (int p = want; p >= lo && p <= hi; p += step)
		if (p == 0 || e->insns[p - 1].code != (BPF_LD | BPF_DW | BPF_IMM))
			return p;
	return -1;
}

int emit_relax(struct emit *e, int end)
{
	int added = 0;

	for (int i = 0; i < e->nfixups; i++) {
		const struct emit_fixup *f = &e->fixups[i];
		int at = f->insn, to = e->label_pos[f->label], p, n;

		if (!fixup_far(e, f) || at >= end + added)
			continue;
		p = to > at ? island_place(e, at + ISLAND_REACH, -1, at + 1, to)
			    : island_place(e, at - ISLAND_REACH, 1, to + 1, at);
		if (p < 0)
			return added;	/* the kernel will say the jump is too far */
		n = island(e, p);
		added += n;
		i = -1;		/* offsets moved: look again from the start */
	}
	return added;
}

int emit_resolve(struct emit *e)
{
	for (int i = 0; i < e->nfixups; i++) {
		int at = e->fixups[i].insn;
		int to = e->label_pos[e->fixups[i].label];

		if (to < 0)
			return -1;
		if (fixup_imm(e, at))
			e->insns[at].imm = to - at - 1;		/* a subprogram's address, a call */
		else
			e->insns[at].off = (int16_t)(to - at - 1);
	}
	e->nfixups = 0;
	return 0;
}

void emit_alu_reg(struct emit *e, int op, int dst, int src)
{
	emit_insn(e, mk(BPF_ALU64 | op | BPF_X, dst, src, 0, 0));
}

void emit_alu_imm(struct emit *e, int op, int dst, int32_t imm)
{
	emit_insn(e, mk(BPF_ALU64 | op | BPF_K, dst, 0, 0, imm));
}

void emit_alu32_reg(struct emit *e, int op, int dst, int src)
{
	emit_insn(e, mk(BPF_ALU | op | BPF_X, dst, src, 0, 0));
}

void emit_alu32_imm(struct emit *e, int op, int dst, int32_t imm)
{
	emit_insn(e, mk(BPF_ALU | op | BPF_K, dst, 0, 0, imm));
}

void emit_sdiv_reg(struct emit *e, int op, int dst, int src)
{
	emit_insn(e, mk(BPF_ALU64 | op | BPF_X, dst, src, 1, 0));
}

/*
 * C's truncating division on magnitudes: the quotient's sign is the
 * operands' signs differing, the remainder's the dividend's.
 *	sign = dst ^ src  (BPF_DIV)  or  dst  (BPF_MOD)
 *	if dst s< 0: dst = -dst;  if src s< 0: src = -src
 *	dst = dst op src  (unsigned)
 *	if sign s< 0: dst = -dst
 * INT64_MIN / -1 gives INT64_MIN, as the native instruction does.
 */
void emit_sdiv_soft(struct emit *e, int op, int dst, int src, int sign)
{
	int l1 = emit_new_label(e), l2 = emit_new_label(e), l3 = emit_new_label(e);

	emit_mov_reg(e, sign, dst);
	if (op == BPF_DIV)
		emit_alu_reg(e, BPF_XOR, sign, src);
	emit_jmp_imm(e, BPF_JSGE, dst, 0, l1);
	emit_alu_imm(e, BPF_NEG, dst, 0);
	emit_label(e, l1);
	emit_jmp_imm(e, BPF_JSGE, src, 0, l2);
	emit_alu_imm(e, BPF_NEG, src, 0);
	emit_label(e, l2);
	emit_alu_reg(e, op, dst, src);
	emit_jmp_imm(e, BPF_JSGE, sign, 0, l3);
	emit_alu_imm(e, BPF_NEG, dst, 0);
	emit_label(e, l3);
}

void emit_mov_reg(struct emit *e, int dst, int src)
{
	emit_alu_reg(e, BPF_MOV, dst, src);
}

void emit_mov_imm(struct emit *e, int dst, int32_t imm)
{
	emit_alu_imm(e, BPF_MOV, dst, imm);
}

static void ld_imm64(struct emit *e, int dst, int src, uint32_t lo, uint32_t hi)
{
	emit_insn(e, mk(BPF_LD | BPF_DW | BPF_IMM, dst, src, 0, (int32_t)lo));
	emit_insn(e, mk(0, 0, 0, 0, (int32_t)hi));
}

void emit_ld_imm64(struct emit *e, int dst, uint64_t imm)
{
	if ((int64_t)imm == (int32_t)imm)
		emit_mov_imm(e, dst, (int32_t)imm);
	else
		ld_imm64(e, dst, 0, (uint32_t)imm, (uint32_t)(imm >> 32));
}

void emit_ld_map_fd(struct emit *e, int dst, int map)
{
	ld_imm64(e, dst, BPF_PSEUDO_MAP_FD, (uint32_t)map, 0);
}

void emit_ld_map_value(struct emit *e, int dst, int map, uint32_t off)
{
	ld_imm64(e, dst, BPF_PSEUDO_MAP_VALUE, (uint32_t)map, off);
}

void emit_ld_func(struct emit *e, int dst, int label)
{
	add_fixup(e, label);
	ld_imm64(e, dst, BPF_PSEUDO_FUNC, 0, 0);
}

void emit_call_func(struct emit *e, int label)
{
	jump_to(e, mk(BPF_JMP | BPF_CALL, 0, BPF_PSEUDO_CALL, 0, 0), label);
}

static int size_code(int size)
{
	switch (size) {
	case 1: return BPF_B;
	case 2: return BPF_H;
	case 4: return BPF_W;
	default: return BPF_DW;
	}
}

void emit_load(struct emit *e, int size, int dst, int src, int16_t off)
{
	emit_insn(e, mk(BPF_LDX | BPF_MEM | size_code(size), dst, src, off, 0));
}

void emit_store(struct emit *e, int size, int dst, int16_t off, int src)
{
	emit_insn(e, mk(BPF_STX | BPF_MEM | size_code(size), dst, src, off, 0));
}

void emit_store_imm(struct emit *e, int size, int dst, int16_t off, int32_t imm)
{
	emit_insn(e, mk(BPF_ST | BPF_MEM | size_code(size), dst, 0, off, imm));
}

/* lock *(u64 *)(dst + off) += src, atomic even against an interrupt on
 * this CPU (BPF_XADD: every kernel with eBPF has it) */
void emit_atomic_add(struct emit *e, int dst, int16_t off, int src)
{
	emit_insn(e, mk(BPF_STX | BPF_ATOMIC | BPF_DW, dst, src, off, BPF_ADD));
}

void emit_jmp_reg(struct emit *e, int op, int dst, int src, int label)
{
	jump_to(e, mk(BPF_JMP | op | BPF_X, dst, src, 0, 0), label);
}

void emit_jmp_imm(struct emit *e, int op, int dst, int32_t imm, int label)
{
	jump_to(e, mk(BPF_JMP | op | BPF_K, dst, 0, 0, imm), label);
}

void emit_jmp32_imm(struct emit *e, int op, int dst, int32_t imm, int label)
{
	jump_to(e, mk(BPF_JMP32 | op | BPF_K, dst, 0, 0, imm), label);
}

void emit_ja(struct emit *e, int label)
{
	jump_to(e, mk(BPF_JMP | BPF_JA, 0, 0, 0, 0), label);
}

void emit_call(struct emit *e, int helper)
{
	emit_insn(e, mk(BPF_JMP | BPF_CALL, 0, 0, 0, helper));
}

void emit_exit(struct emit *e)
{
	emit_insn(e, mk(BPF_JMP | BPF_EXIT, 0, 0, 0, 0));
}
