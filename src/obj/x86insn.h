/*
 * x86insn.h -- the length of an x86-64 instruction, and so where the
 * instructions of a function begin.
 *
 * The pid provider places a uprobe at an offset in a function only where
 * an instruction begins: the kernel decodes whatever bytes it finds at a
 * uprobe, and a breakpoint written into the middle of an instruction
 * changes what the traced program does.  This decoder answers one
 * question, how long an instruction is, for 64-bit code, and answers 0
 * ("cannot tell") rather than guess.
 */
#ifndef DSCOPE_X86INSN_H
#define DSCOPE_X86INSN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define X86INSN_MAX 15		/* the architecture's longest instruction */

struct x86insn {
	size_t len;		/* 1..X86INSN_MAX */
	bool falls_through;	/* control may go on to the next instruction */
	bool branches;		/* a direct jump, jcc or call ... */
	int32_t rel;		/*   to this many bytes past the instruction's end */
};

/* Decode the instruction at code[0], where n bytes are readable; false
 * when the bytes are not an instruction this decoder knows the length
 * of, or it would run past n. */
bool x86insn_decode(const uint8_t *code, size_t n, struct x86insn *in);

/* x86insn_decode's length, or 0 when it returns false. */
size_t x86insn_length(const uint8_t *code, size_t n);

/* Walk code[0..size) from its start, instruction by instruction.  Returns
 * the number of instructions, having stored each one's offset in
 * starts[] (room for size entries; NULL: count only), or -1 when an
 * instruction cannot be decoded or the last one would end past size;
 * then *bad (when not NULL) is that instruction's offset. */
long x86insn_walk(const uint8_t *code, size_t size, uint32_t *starts,
		  size_t *bad);

/* Of the instructions starts[0..n) (from x86insn_walk), mark those that
 * control reaches from offset 0 by falling through and by direct
 * branches inside [0, size) in reached[]; return how many.  -1 when a
 * branch lands inside an instruction, a sign that the walk mistook data
 * for code (then *bad is the branch's offset). */
long x86insn_reach(const uint8_t *code, size_t size, const uint32_t *starts,
		   long n, bool *reached, size_t *bad);

#endif /* DSCOPE_X86INSN_H */
