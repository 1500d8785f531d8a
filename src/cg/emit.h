/*
 * emit.h -- building BPF instruction streams.
 *
 * The code generator appends instructions to a struct emit with the
 * helpers below; each helper is one instruction and its comment gives the
 * BPF assembly, so a reader of cg.c sees the program it produces.  Jumps
 * are emitted with a label number and patched when the label is placed
 * (emit_label), so forward branches need no bookkeeping in cg.c.
 *
 * A callback (bpf_loop's, bpf_find_vma's) is a subprogram emitted after
 * the program's exit and named by a label: emit_ld_func loads its address
 * (ld_imm64 with BPF_PSEUDO_FUNC, patched like a jump, in imm), and
 * emit_call_func calls one (BPF_PSEUDO_CALL, in imm too).
 *
 * A block of instructions can be cut from the stream and pasted at its end
 * (emit_cut, emit_paste): labels and jumps move with it, so a loop body
 * emitted in place can become a callback after the exit.
 *
 * Map references (ld_imm64 with BPF_PSEUDO_MAP_FD / _VALUE) carry the
 * index of a map in the compiled spec, not an fd: the loader patches in
 * the fd (load.c), so a compiled program can be inspected or loaded later.
 */
#ifndef DSCOPE_EMIT_H
#define DSCOPE_EMIT_H

#include <linux/bpf.h>
#include <stdint.h>

#include "base/arena.h"

struct emit {
	struct arena *a;	/* the compile's: every buffer below is in it */
	struct bpf_insn *insns;
	int n, cap;
	int *label_pos;		/* label -> instruction index, -1 until placed */
	int nlabels, label_cap;
	struct emit_fixup {
		int insn;	/* the jump (or function address) to patch */
		int label;
	} *fixups;
	int nfixups, fixup_cap;
};

/* Instructions taken out of a stream with their labels and jumps, to be
 * put back elsewhere (a loop body that becomes a bpf_loop callback). */
struct emit_block {
	struct bpf_insn *insns;
	int n;
	struct emit_fixup *labels;	/* .insn: offset in the block */
	int nlabels;
	struct emit_fixup *fixups;	/* .insn: offset in the block */
	int nfixups;
};

void emit_init(struct emit *e, struct arena *a);
/* Take instructions [start, n) out, with the labels placed there and the
 * jumps from there; the stream goes on at start. */
struct emit_block emit_cut(struct emit *e, int start);
/* Append b, its labels placed and its jumps to be patched; its index. */
int emit_paste(struct emit *e, const struct emit_block *b);
void emit_insn(struct emit *e, struct bpf_insn insn);

int emit_new_label(struct emit *e);
void emit_label(struct emit *e, int label);	/* place label here */
/*
 * Make every jump of [0, end) reach: a BPF jump's offset is 16 bits, so
 * one past 32767 instructions goes through trampolines put on the way
 * (emit.c).  Returns the instructions added, all before `end`.
 */
int emit_relax(struct emit *e, int end);
int emit_resolve(struct emit *e);		/* patch jumps; -1 if a label is unplaced */

/* rD = rS / imm (64-bit ALU):  BPF_ALU64 | op | BPF_X/K */
void emit_alu_reg(struct emit *e, int op, int dst, int src);
void emit_alu_imm(struct emit *e, int op, int dst, int32_t imm);
void emit_alu32_reg(struct emit *e, int op, int dst, int src);
void emit_alu32_imm(struct emit *e, int op, int dst, int32_t imm);
/* signed division and modulo (cpu v4: off = 1) */
void emit_sdiv_reg(struct emit *e, int op, int dst, int src);
/* the same from unsigned ones, for kernels without cpu v4 (before 6.6):
 * src is clobbered, sign a scratch register */
void emit_sdiv_soft(struct emit *e, int op, int dst, int src, int sign);
void emit_mov_reg(struct emit *e, int dst, int src);		/* rD = rS */
void emit_mov_imm(struct emit *e, int dst, int32_t imm);	/* rD = imm (sign-extended) */
void emit_ld_imm64(struct emit *e, int dst, uint64_t imm);	/* rD = imm64 */
void emit_ld_map_fd(struct emit *e, int dst, int map);	/* rD = &map (pseudo fd) */
void emit_ld_func(struct emit *e, int dst, int label);	/* rD = &subprogram at label */
void emit_call_func(struct emit *e, int label);		/* call subprogram at label */
void emit_ld_map_value(struct emit *e, int dst, int map, uint32_t off);	/* rD = &map[0] + off */
/* rD = *(size *)(rS + off); size is 1, 2, 4 or 8 */
void emit_load(struct emit *e, int size, int dst, int src, int16_t off);
/* *(size *)(rD + off) = rS */
void emit_store(struct emit *e, int size, int dst, int16_t off, int src);
void emit_atomic_add(struct emit *e, int dst, int16_t off, int src);
/* *(size *)(rD + off) = imm */
void emit_store_imm(struct emit *e, int size, int dst, int16_t off, int32_t imm);
/* if rD op rS goto label; op is BPF_JEQ, BPF_JGT, ... */
void emit_jmp_reg(struct emit *e, int op, int dst, int src, int label);
void emit_jmp_imm(struct emit *e, int op, int dst, int32_t imm, int label);
/* the same on the low 32 bits (BPF_JMP32) */
void emit_jmp32_imm(struct emit *e, int op, int dst, int32_t imm, int label);
void emit_ja(struct emit *e, int label);			/* goto label */
void emit_call(struct emit *e, int helper);			/* call helper */
void emit_exit(struct emit *e);					/* exit */

/* Register names, for readability in cg.c. */
enum { R0 = 0, R1, R2, R3, R4, R5, R6, R7, R8, R9, R10 };

#endif /* DSCOPE_EMIT_H */
