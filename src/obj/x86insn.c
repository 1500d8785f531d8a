/*
 * x86insn.c -- x86-64 instruction lengths.  See x86insn.h.
 *
 * An instruction in 64-bit mode is, in order:
 *
 *	legacy prefixes   F0 F2 F3, 2E 36 3E 26 64 65, 66 (operand size),
 *			  67 (address size), any number, any order
 *	REX               40-4F, only just before the opcode; W = 64-bit
 *	opcode            one byte; 0F and one byte; 0F 38 or 0F 3A and one
 *			  byte; or a VEX (C5 + 1, C4 + 2) or EVEX (62 + 3)
 *			  prefix naming one of those maps, and one byte
 *	ModRM             when the opcode has one; then a SIB byte when
 *			  rm = 100 and mod != 11, and a displacement of 1 byte
 *			  (mod 01), 4 bytes (mod 10, or mod 00 with rm = 101,
 *			  RIP-relative, or SIB base = 101)
 *	immediate         0, 1, 2, 4 or 8 bytes, by the opcode, 66 and REX.W
 *
 * 15 bytes at most.  Only the opcode decides whether a ModRM and an
 * immediate follow, so the opcode maps are tables of those facts
 * (one_byte[], two_byte[]); the few opcodes whose length depends on
 * more than that carry a flag saying what (TEST, SSE4A, MOFFS, REL).
 *
 * The invariant: for any bytes a CPU executes, the length given is the
 * CPU's, on Intel and AMD alike, or 0.  0 ("cannot tell") is returned
 * for opcodes that are invalid in 64-bit mode, for AMD's XOP and 3DNow!
 * encodings, for Intel's APX (REX2, EVEX maps 4 and 7), and where the
 * vendors disagree: a 66 prefix on a near branch with a 32-bit
 * displacement (E8, E9, 0F 8x) is ignored by Intel and shortens the
 * displacement to 16 bits on AMD.  A REX followed by another prefix,
 * which the CPU ignores but disassemblers show as an instruction of its
 * own, is refused too.  An encoding that is defined but would fault
 * (#UD) -- 0F D6 without its mandatory 66, say -- may still be given the
 * length its opcode implies: it never runs to completion, so no
 * instruction begins after it.
 *
 * Nothing here looks at operands beyond their size: the decoder is
 * checked against objdump over whole libraries (tests/sh/x86insn.sh)
 * and on a fixed set of hard cases (tests/unit/test_x86insn.c).
 */
#include "obj/x86insn.h"

#include <stdlib.h>

enum {
	OK = 1 << 0,	/* the opcode is known; 0 in a table: cannot tell */
	M = 1 << 1,	/* a ModRM byte (and SIB, displacement) follows */
	I8 = 1 << 2,	/* an 8-bit immediate */
	I16 = 1 << 3,	/* a 16-bit immediate (ret imm16; enter has I16|I8) */
	IZ = 1 << 4,	/* 16 bits with 66 (and no REX.W), else 32 */
	IV = 1 << 5,	/* 64 bits with REX.W, else as IZ (mov reg, imm) */
	MOFFS = 1 << 6,	/* an absolute address: 8 bytes, 4 with 67 */
	REL = 1 << 7,	/* rel32; with 66 and no REX.W: cannot tell (above) */
	TEST = 1 << 8,	/* the immediate is there for ModRM.reg 0 and 1 only */
	RONLY = 1 << 9,	/* ModRM.mod is ignored: always registers (mov crN) */
	SSE4A = 1 << 10,/* 0F 78: with 66 or F2, AMD's extrq/insertq, 2 x imm8 */
	BR = 1 << 11,	/* the immediate is a branch displacement (rel8, rel32) */
	END = 1 << 12,	/* control never falls through (jmp, ret, ud2, hlt) */
	GRP5 = 1 << 13,	/* FF: /4 and /5 (jmp near, far) END, the rest not */
};

/* One-byte opcodes.  Prefixes and escapes (0F, 62, C4, C5) are taken
 * before the table is read; 8F is POP Ev unless it begins an XOP. */
static const uint16_t one_byte[256] = {
	[0x00 ... 0x03] = OK | M, [0x04] = OK | I8, [0x05] = OK | IZ,
	[0x08 ... 0x0b] = OK | M, [0x0c] = OK | I8, [0x0d] = OK | IZ,
	[0x10 ... 0x13] = OK | M, [0x14] = OK | I8, [0x15] = OK | IZ,
	[0x18 ... 0x1b] = OK | M, [0x1c] = OK | I8, [0x1d] = OK | IZ,
	[0x20 ... 0x23] = OK | M, [0x24] = OK | I8, [0x25] = OK | IZ,
	[0x28 ... 0x2b] = OK | M, [0x2c] = OK | I8, [0x2d] = OK | IZ,
	[0x30 ... 0x33] = OK | M, [0x34] = OK | I8, [0x35] = OK | IZ,
	[0x38 ... 0x3b] = OK | M, [0x3c] = OK | I8, [0x3d] = OK | IZ,
	[0x50 ... 0x5f] = OK,				/* push, pop */
	[0x63] = OK | M,				/* movsxd */
	[0x68] = OK | IZ, [0x69] = OK | M | IZ,		/* push, imul */
	[0x6a] = OK | I8, [0x6b] = OK | M | I8,
	[0x6c ... 0x6f] = OK,				/* ins, outs */
	[0x70 ... 0x7f] = OK | I8 | BR,			/* jcc rel8 */
	[0x80] = OK | M | I8, [0x81] = OK | M | IZ, [0x83] = OK | M | I8,
	[0x84 ... 0x8f] = OK | M,
	[0x90 ... 0x99] = OK, [0x9b ... 0x9f] = OK,
	[0xa0 ... 0xa3] = OK | MOFFS,			/* mov al/eax, [moffs] */
	[0xa4 ... 0xa7] = OK, [0xa8] = OK | I8, [0xa9] = OK | IZ,
	[0xaa ... 0xaf] = OK,
	[0xb0 ... 0xb7] = OK | I8, [0xb8 ... 0xbf] = OK | IV,
	[0xc0 ... 0xc1] = OK | M | I8,			/* shift group, imm8 */
	[0xc2] = OK | I16 | END, [0xc3] = OK | END,	/* ret imm16, ret */
	[0xc6] = OK | M | I8, [0xc7] = OK | M | IZ,	/* mov; xabort, xbegin */
	[0xc8] = OK | I16 | I8, [0xc9] = OK,		/* enter, leave */
	[0xca] = OK | I16 | END, [0xcb ... 0xcc] = OK | END,	/* lret, int3 */
	[0xcd] = OK | I8, [0xcf] = OK | END,		/* int, iret */
	[0xd0 ... 0xd3] = OK | M, [0xd7] = OK,		/* shifts, xlat */
	[0xd8 ... 0xdf] = OK | M,			/* x87 */
	[0xe0 ... 0xe3] = OK | I8 | BR,			/* loop, jrcxz */
	[0xe4 ... 0xe7] = OK | I8,			/* in, out */
	[0xe8] = OK | REL | BR,				/* call */
	[0xe9] = OK | REL | BR | END, [0xeb] = OK | I8 | BR | END,	/* jmp */
	[0xec ... 0xef] = OK,
	[0xf1] = OK, [0xf4] = OK | END, [0xf5] = OK,	/* int1, hlt, cmc */
	[0xf6] = OK | M | I8 | TEST, [0xf7] = OK | M | IZ | TEST,
	[0xf8 ... 0xfd] = OK, [0xfe] = OK | M, [0xff] = OK | M | GRP5,
};

/* 0F xx.  0F 0F (3DNow!) is left unknown; 0F 38 and 0F 3A are escapes to
 * maps where every opcode has a ModRM, and in 0F 3A an imm8. */
static const uint16_t two_byte[256] = {
	[0x00 ... 0x03] = OK | M, [0x05 ... 0x09] = OK,
	[0x0b] = OK | END,				/* ud2 */
	[0x0d] = OK | M, [0x0e] = OK,			/* prefetch, femms */
	[0x10 ... 0x1f] = OK | M,			/* sse moves, nop Ev */
	[0x20 ... 0x23] = OK | M | RONLY,		/* mov cr, dr */
	[0x28 ... 0x2f] = OK | M,
	[0x30 ... 0x35] = OK, [0x37] = OK,		/* wrmsr ... getsec */
	[0x40 ... 0x6f] = OK | M,			/* cmov, sse, mmx */
	[0x70 ... 0x73] = OK | M | I8,			/* pshuf, shift groups */
	[0x74 ... 0x76] = OK | M, [0x77] = OK,		/* pcmpeq, emms */
	[0x78] = OK | M | SSE4A, [0x79] = OK | M,	/* vmread/extrq, ... */
	[0x7c ... 0x7f] = OK | M,
	[0x80 ... 0x8f] = OK | REL | BR,		/* jcc rel32 */
	[0x90 ... 0x9f] = OK | M,			/* setcc */
	[0xa0 ... 0xa2] = OK, [0xa3] = OK | M,		/* push/pop fs, cpuid */
	[0xa4] = OK | M | I8, [0xa5] = OK | M,		/* shld */
	[0xa8 ... 0xaa] = OK, [0xab] = OK | M,		/* push/pop gs, rsm */
	[0xac] = OK | M | I8, [0xad ... 0xaf] = OK | M,	/* shrd, group 15 */
	[0xb0 ... 0xb9] = OK | M, [0xba] = OK | M | I8,	/* bt group, imm8 */
	[0xbb ... 0xc1] = OK | M, [0xc2] = OK | M | I8, [0xc3] = OK | M,
	[0xc4 ... 0xc6] = OK | M | I8, [0xc7] = OK | M,	/* pinsrw ... shufps */
	[0xc8 ... 0xcf] = OK,				/* bswap */
	[0xd0 ... 0xff] = OK | M,
};

struct cursor {
	const uint8_t *code;
	size_t len, limit;	/* bytes taken; readable, at most 15 */
};

struct prefixes {
	bool opsize, adsize, f2, f3;	/* 66, 67, F2, F3 seen */
	bool rex, rexw;			/* a REX prefix; its W bit */
};

static bool take(struct cursor *c, uint8_t *b)
{
	if (c->len >= c->limit)
		return false;
	*b = c->code[c->len++];
	return true;
}

static bool skip(struct cursor *c, size_t n)
{
	if (c->limit - c->len < n)
		return false;
	c->len += n;
	return true;
}

static bool is_legacy_prefix(uint8_t b)
{
	return b == 0xf0 || b == 0xf2 || b == 0xf3 || b == 0x2e || b == 0x36 ||
	       b == 0x3e || b == 0x26 || b == 0x64 || b == 0x65 || b == 0x66 ||
	       b == 0x67;
}

static bool is_rex(uint8_t b)
{
	return (b & 0xf0) == 0x40;
}

/* Legacy prefixes and a REX; leaves the cursor on the opcode's first byte
 * (in *op).  False when the bytes run out, or a REX is not last. */
static bool take_prefixes(struct cursor *c, struct prefixes *px, uint8_t *op)
{
	for (;;) {
		if (!take(c, op))
			return false;
		if (!is_legacy_prefix(*op))
			break;
		px->opsize |= *op == 0x66;
		px->adsize |= *op == 0x67;
		px->f2 |= *op == 0xf2;
		px->f3 |= *op == 0xf3;
	}
	if (!is_rex(*op))
		return true;
	px->rex = true;
	px->rexw = *op & 0x08;
	return take(c, op) && !is_legacy_prefix(*op) && !is_rex(*op);
}

/*
 * VEX (C5 RvvvvLpp; C4 RXBmmmmm WvvvvLpp) and EVEX (62 P0 P1 P2, the map
 * in P0's low three bits, P0 bit 3 zero and P1 bit 2 one) name an opcode
 * map; the opcode byte follows.  The flags of that opcode: in map 0F as
 * in two_byte[] (a ModRM always, but for VEX's vzeroupper/vzeroall, 77),
 * in 0F 38 a ModRM, in 0F 3A a ModRM and an imm8; EVEX's maps 5 and 6
 * (FP16) as 0F 38.  These prefixes stand in for 66, F2, F3 and REX, so
 * with one of those before them the CPU faults: 0.
 */
static uint16_t take_vex(struct cursor *c, const struct prefixes *px, uint8_t esc)
{
	uint8_t p[3], op;
	size_t n = esc == 0xc5 ? 1 : esc == 0xc4 ? 2 : 3;
	unsigned map;

	if (px->opsize || px->f2 || px->f3 || px->rex)
		return 0;
	for (size_t i = 0; i < n; i++)
		if (!take(c, &p[i]))
			return 0;
	map = esc == 0xc5 ? 1 : esc == 0xc4 ? p[0] & 0x1f : p[0] & 0x07;
	if (esc == 0x62 && ((p[0] & 0x08) || !(p[1] & 0x04)))
		return 0;
	if (!take(c, &op))
		return 0;
	switch (map) {
	case 1:
		return op == 0x77 && esc != 0x62 ? OK : OK | M | (two_byte[op] & I8);
	case 2:
		return OK | M;
	case 3:
		return OK | M | I8;
	case 5:
	case 6:
		return esc == 0x62 ? OK | M : 0;
	default:
		return 0;
	}
}

/* The opcode's flags, with the cursor past the opcode bytes. */
static uint16_t take_opcode(struct cursor *c, const struct prefixes *px, uint8_t op)
{
	uint8_t b;

	switch (op) {
	case 0x0f:
		if (!take(c, &b))
			return 0;
		if (b == 0x38 || b == 0x3a)
			return take(c, &op) ? (b == 0x38 ? OK | M : OK | M | I8) : 0;
		return two_byte[b];
	case 0xc4:
	case 0xc5:
	case 0x62:
		return px->rex ? 0 : take_vex(c, px, op);
	case 0x8f:	/* XOP when ModRM.reg would not be 0 */
		return c->len < c->limit && (c->code[c->len] & 0x38) ? 0 : one_byte[op];
	default:
		return one_byte[op];
	}
}

/* ModRM, SIB and displacement; *reg is ModRM.reg. */
static bool take_modrm(struct cursor *c, bool reg_only, unsigned *reg)
{
	uint8_t m, sib;
	unsigned mod, rm;
	size_t disp;

	if (!take(c, &m))
		return false;
	*reg = (m >> 3) & 7;
	mod = m >> 6;
	rm = m & 7;
	if (mod == 3 || reg_only)
		return true;
	disp = mod == 1 ? 1 : mod == 2 ? 4 : 0;
	if (rm == 4) {
		if (!take(c, &sib))
			return false;
		if (mod == 0 && (sib & 7) == 5)
			disp = 4;
	} else if (mod == 0 && rm == 5) {
		disp = 4;	/* RIP-relative */
	}
	return skip(c, disp);
}

/* The immediate's size in bytes; -1: cannot tell (REL with 66). */
static int imm_size(uint16_t f, const struct prefixes *px, unsigned reg)
{
	int z = px->opsize && !px->rexw ? 2 : 4;
	int size = 0;

	if ((f & TEST) && reg > 1)
		return 0;
	if ((f & REL) && px->opsize && !px->rexw)
		return -1;
	size += f & I8 ? 1 : 0;
	size += f & I16 ? 2 : 0;
	size += f & IZ ? z : 0;
	size += f & IV ? (px->rexw ? 8 : z) : 0;
	size += f & MOFFS ? (px->adsize ? 4 : 8) : 0;
	size += f & REL ? 4 : 0;
	size += (f & SSE4A) && (px->opsize || px->f2) ? 2 : 0;
	return size;
}

/* The displacement ending the instruction (rel8 or rel32), little-endian */
static int32_t branch_rel(const uint8_t *end, uint16_t f)
{
	if (!(f & REL))
		return (int8_t)end[-1];
	return (int32_t)((uint32_t)end[-4] | (uint32_t)end[-3] << 8 |
			 (uint32_t)end[-2] << 16 | (uint32_t)end[-1] << 24);
}

bool x86insn_decode(const uint8_t *code, size_t n, struct x86insn *in)
{
	struct cursor c = { code, 0, n < X86INSN_MAX ? n : X86INSN_MAX };
	struct prefixes px = { 0 };
	unsigned reg = 0;
	uint8_t op;
	uint16_t f;
	int imm;

	if (!take_prefixes(&c, &px, &op))
		return false;
	f = take_opcode(&c, &px, op);
	if (!(f & OK))
		return false;
	if ((f & M) && !take_modrm(&c, f & RONLY, &reg))
		return false;
	imm = imm_size(f, &px, reg);
	if (imm < 0 || !skip(&c, (size_t)imm))
		return false;
	in->len = c.len;
	in->branches = f & BR;
	in->rel = in->branches ? branch_rel(code + c.len, f) : 0;
	in->falls_through = !(f & END) && !((f & GRP5) && (reg == 4 || reg == 5));
	return true;
}

size_t x86insn_length(const uint8_t *code, size_t n)
{
	struct x86insn in;

	return x86insn_decode(code, n, &in) ? in.len : 0;
}

long x86insn_walk(const uint8_t *code, size_t size, uint32_t *starts, size_t *bad)
{
	size_t off = 0;
	long n = 0;

	while (off < size) {
		size_t len = x86insn_length(code + off, size - off);

		if (len == 0) {
			if (bad)
				*bad = off;
			return -1;
		}
		if (starts)
			starts[n] = (uint32_t)off;
		n++;
		off += len;
	}
	return n;
}

/* The index of off in starts[0..n), or -1 */
static long start_index(const uint32_t *starts, long n, uint64_t off)
{
	long lo = 0, hi = n;

	while (lo < hi) {
		long mid = lo + (hi - lo) / 2;

		if (starts[mid] < off)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n && starts[lo] == off ? lo : -1;
}

/*
 * A depth-first walk from offset 0 over fall-through and direct branch
 * edges, with an explicit stack (one entry per instruction at most).
 * Targets outside the function (calls, tail calls) are not followed.
 */
long x86insn_reach(const uint8_t *code, size_t size, const uint32_t *starts,
		   long n, bool *reached, size_t *bad)
{
	long *stack = n > 0 ? malloc((size_t)n * sizeof(*stack)) : NULL;
	long depth = 0, count = 0;

	for (long k = 0; k < n; k++)
		reached[k] = false;
	if (!stack)
		return 0;
	reached[0] = true;
	stack[depth++] = 0;
	while (depth > 0) {
		long k = stack[--depth], next[2];
		struct x86insn in;
		int nnext = 0;

		count++;
		x86insn_decode(code + starts[k], size - starts[k], &in);
		if (in.falls_through && k + 1 < n)
			next[nnext++] = k + 1;
		if (in.branches) {
			int64_t to = (int64_t)starts[k] + (int64_t)in.len + in.rel;
			long t = to >= 0 && (uint64_t)to < size
				 ? start_index(starts, n, (uint64_t)to) : -2;

			if (t == -1) {
				if (bad)
					*bad = starts[k];
				free(stack);
				return -1;
			}
			if (t >= 0)
				next[nnext++] = t;
		}
		for (int i = 0; i < nnext; i++)
			if (!reached[next[i]]) {
				reached[next[i]] = true;
				stack[depth++] = next[i];
			}
	}
	free(stack);
	return count;
}
