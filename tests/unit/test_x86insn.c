/*
 * test_x86insn.c -- x86-64 instruction lengths on encodings chosen to be
 * hard: every immediate rule, every prefix rule, VEX and EVEX, and the
 * encodings the decoder must refuse (length 0).  The lengths of the
 * accepted ones are objdump's (objdump -D -b binary -m i386:x86-64) but
 * for two where objdump shows something other than what the CPU runs: a
 * lone FWAIT (objdump merges 9B with the x87 instruction after it) and
 * 14 repeated 66 prefixes (objdump splits them off; the CPU takes up to
 * 15 bytes).  Whole libraries are compared with objdump by
 * tests/sh/x86insn.sh.
 */
#include "test.h"

#include <stdbool.h>
#include <stdint.h>

#include "obj/x86insn.h"

struct encoding {
	const char *what;
	uint8_t bytes[16];
	size_t n;		/* bytes readable */
	size_t len;		/* the instruction's length; 0: refused */
};

static const struct encoding encodings[] = {
	{ "nop", { 0x90 }, 1, 1 },
	{ "push rbp", { 0x55 }, 1, 1 },
	{ "mov rbp, rsp", { 0x48, 0x89, 0xe5 }, 3, 3 },
	{ "endbr64", { 0xf3, 0x0f, 0x1e, 0xfa }, 4, 4 },
	{ "cs nopw 0(rax,rax,1)",
	  { 0x66, 0x2e, 0x0f, 0x1f, 0x84, 0x00, 0, 0, 0, 0 }, 10, 10 },
	{ "nopl 0(rax,rax,1)", { 0x0f, 0x1f, 0x44, 0x00, 0x00 }, 5, 5 },
	/* immediates: 66 and REX.W */
	{ "movabs rax, imm64", { 0x48, 0xb8, 1, 2, 3, 4, 5, 6, 7, 8 }, 10, 10 },
	{ "mov ax, imm16", { 0x66, 0xb8, 0x34, 0x12 }, 4, 4 },
	{ "mov eax, imm32", { 0xb8, 1, 2, 3, 4 }, 5, 5 },
	{ "66 REX.W mov: REX.W wins, imm64",
	  { 0x66, 0x48, 0xb8, 1, 2, 3, 4, 5, 6, 7, 8 }, 11, 11 },
	{ "mov rax, -1: REX.W imm32", { 0x48, 0xc7, 0xc0, 0xff, 0xff, 0xff, 0xff }, 7, 7 },
	{ "movw $imm16, (rax)", { 0x66, 0xc7, 0x00, 0x34, 0x12 }, 5, 5 },
	{ "imul eax, eax, imm32", { 0x69, 0xc0, 1, 2, 3, 4 }, 6, 6 },
	{ "imul eax, eax, imm8", { 0x6b, 0xc0, 0x05 }, 3, 3 },
	{ "ret imm16", { 0xc2, 0x08, 0x00 }, 3, 3 },
	{ "enter imm16, imm8", { 0xc8, 0x10, 0x00, 0x00 }, 4, 4 },
	/* F6 and F7: an immediate for /0 (test) only */
	{ "test cl, imm8", { 0xf6, 0xc1, 0x01 }, 3, 3 },
	{ "not cl", { 0xf6, 0xd1 }, 2, 2 },
	{ "test ecx, imm32", { 0xf7, 0xc1, 1, 2, 3, 4 }, 6, 6 },
	{ "test cx, imm16", { 0x66, 0xf7, 0xc1, 1, 2 }, 5, 5 },
	{ "neg eax", { 0xf7, 0xd8 }, 2, 2 },
	/* moffs: 8 bytes, 4 with 67 */
	{ "movabs al, moffs64", { 0xa0, 1, 2, 3, 4, 5, 6, 7, 8 }, 9, 9 },
	{ "mov al, moffs32 (67)", { 0x67, 0xa0, 1, 2, 3, 4 }, 6, 6 },
	/* branches */
	{ "call rel32", { 0xe8, 1, 2, 3, 4 }, 5, 5 },
	{ "data16 call: Intel and AMD disagree", { 0x66, 0xe8, 1, 2, 3, 4 }, 6, 0 },
	{ "data16 data16 rex.W call (TLS)", { 0x66, 0x66, 0x48, 0xe8, 1, 2, 3, 4 }, 8, 8 },
	{ "jne rel32", { 0x0f, 0x85, 1, 2, 3, 4 }, 6, 6 },
	{ "data16 jne rel32", { 0x66, 0x0f, 0x85, 1, 2, 3, 4 }, 7, 0 },
	{ "bnd jmp rel32", { 0xf2, 0xe9, 1, 2, 3, 4 }, 6, 6 },
	{ "jrcxz rel8", { 0xe3, 0xfe }, 2, 2 },
	{ "jmp *r11", { 0x41, 0xff, 0xe3 }, 3, 3 },
	{ "xbegin rel32", { 0xc7, 0xf8, 1, 2, 3, 4 }, 6, 6 },
	{ "xabort imm8", { 0xc6, 0xf8, 0x01 }, 3, 3 },
	/* ModRM, SIB, displacement */
	{ "mov eax, [disp32] (SIB, no base)", { 0x8b, 0x04, 0x25, 0, 0, 0, 0 }, 7, 7 },
	{ "mov eax, [rip+disp32]", { 0x8b, 0x05, 1, 2, 3, 4 }, 6, 6 },
	{ "mov eax, [rsp+8]", { 0x8b, 0x44, 0x24, 0x08 }, 4, 4 },
	{ "mov eax, [rsp+disp32]", { 0x8b, 0x84, 0x24, 1, 2, 3, 4 }, 7, 7 },
	{ "lea r8, [rcx+r8*2]", { 0x4e, 0x8d, 0x04, 0x41 }, 4, 4 },
	{ "mov rax, fs:0x28", { 0x64, 0x48, 0x8b, 0x04, 0x25, 0x28, 0, 0, 0 }, 9, 9 },
	{ "lock cmpxchg [rcx], edx", { 0xf0, 0x0f, 0xb1, 0x11 }, 4, 4 },
	{ "mov rax, cr0", { 0x0f, 0x20, 0xc0 }, 3, 3 },
	{ "mov cr0: mod ignored, no SIB", { 0x0f, 0x22, 0x04 }, 3, 3 },
	/* two- and three-byte maps */
	{ "syscall", { 0x0f, 0x05 }, 2, 2 },
	{ "ud2", { 0x0f, 0x0b }, 2, 2 },
	{ "bt eax, imm8", { 0x0f, 0xba, 0xe0, 0x03 }, 4, 4 },
	{ "pshufd xmm0, xmm1, imm8", { 0x66, 0x0f, 0x70, 0xc1, 0x1b }, 5, 5 },
	{ "pshufb xmm0, xmm1 (0F 38)", { 0x66, 0x0f, 0x38, 0x00, 0xc1 }, 5, 5 },
	{ "palignr xmm0, xmm1, imm8 (0F 3A)", { 0x66, 0x0f, 0x3a, 0x0f, 0xc1, 8 }, 6, 6 },
	{ "vmread rcx, rax", { 0x0f, 0x78, 0xc1 }, 3, 3 },
	{ "extrq xmm1, imm8, imm8 (AMD)", { 0x66, 0x0f, 0x78, 0xc1, 4, 8 }, 6, 6 },
	{ "fldz", { 0xd9, 0xee }, 2, 2 },
	{ "fld qword [rsp]", { 0xdd, 0x04, 0x24 }, 3, 3 },
	{ "fwait, alone", { 0x9b, 0xd9, 0x7c, 0x24, 0x02 }, 5, 1 },
	/* VEX and EVEX */
	{ "vzeroupper: VEX without ModRM", { 0xc5, 0xf8, 0x77 }, 3, 3 },
	{ "vmovdqa ymm0, [rsp]", { 0xc5, 0xfd, 0x6f, 0x04, 0x24 }, 5, 5 },
	{ "vpsrldq ymm0, ymm1, imm8 (VEX 0F, imm)", { 0xc5, 0xfd, 0x73, 0xd9, 4 }, 5, 5 },
	{ "vpbroadcastd ymm0, xmm0 (VEX 0F 38)", { 0xc4, 0xe2, 0x7d, 0x58, 0xc0 }, 5, 5 },
	{ "vinsertf128 (VEX 0F 3A, imm)", { 0xc4, 0xe3, 0x7d, 0x18, 0xc1, 1 }, 6, 6 },
	{ "vmovdqa64 zmm0, [rsp] (EVEX)", { 0x62, 0xf1, 0xfd, 0x48, 0x6f, 0x04, 0x24 }, 7, 7 },
	{ "vpshufd zmm0, zmm0, imm8 (EVEX 0F)", { 0x62, 0xf1, 0x7d, 0x48, 0x70, 0xc0, 0x1b }, 7, 7 },
	{ "vpternlogd (EVEX 0F 3A)", { 0x62, 0xf3, 0x75, 0x48, 0x25, 0xc2, 0x96 }, 7, 7 },
	{ "vmovdqu64 zmm0, [rax+0x40] (disp8*N)",
	  { 0x62, 0xf1, 0xfe, 0x48, 0x6f, 0x40, 0x01 }, 7, 7 },
	/* refused */
	{ "3DNow!", { 0x0f, 0x0f, 0xc1, 0xb4 }, 4, 0 },
	{ "XOP", { 0x8f, 0xe8, 0x78, 0xc2, 0xc1, 0x01 }, 6, 0 },
	{ "pop [rax] (8F /0, not XOP)", { 0x8f, 0x00 }, 2, 2 },
	{ "push es: invalid in 64-bit mode", { 0x06 }, 1, 0 },
	{ "REX, then a prefix", { 0x40, 0x66, 0x90 }, 3, 0 },
	{ "66 before VEX", { 0x66, 0xc5, 0xf8, 0x77 }, 4, 0 },
	{ "EVEX with P1 bit 2 clear", { 0x62, 0xf1, 0xf9, 0x48, 0x6f, 0xc0 }, 6, 0 },
	{ "VEX map 4", { 0xc4, 0xe4, 0x7d, 0x18, 0xc1 }, 5, 0 },
	{ "REX2 (APX)", { 0xd5, 0x00, 0x89, 0xc0 }, 4, 0 },
	{ "truncated ModRM", { 0x48, 0x8b }, 2, 0 },
	{ "truncated imm32", { 0xb8, 1, 2 }, 3, 0 },
	{ "15 bytes: 14 prefixes and nop",
	  { 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66,
	    0x66, 0x66, 0x90 }, 15, 15 },
	{ "16 bytes: too long",
	  { 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66,
	    0x66, 0x66, 0x66, 0x90 }, 16, 0 },
};

TEST(x86insn_lengths)
{
	for (size_t i = 0; i < sizeof(encodings) / sizeof(*encodings); i++) {
		const struct encoding *e = &encodings[i];
		size_t got = x86insn_length(e->bytes, e->n);

		if (got != e->len) {
			fprintf(stderr, "%s: length %zu, want %zu\n", e->what, got, e->len);
			unit_failures++;
		}
	}
}

TEST(x86insn_walk_lands_on_the_end)
{
	/* xor eax, eax; mov eax, imm32 cut short by the function's end */
	static const uint8_t code[] = { 0x31, 0xc0, 0xb8, 1, 2, 3 };
	uint32_t starts[sizeof(code)];
	size_t bad = 99;

	CHECK(x86insn_walk(code, 2, starts, &bad) == 1);
	CHECK(x86insn_walk(code, sizeof(code), starts, &bad) == -1);
	CHECK(bad == 2);
}

/* walk then reach; returns reach's result, reached[] filled */
static long reach(const uint8_t *code, size_t size, bool *reached, size_t *bad)
{
	uint32_t starts[32];
	long n = x86insn_walk(code, size, starts, NULL);

	CHECK(n > 0 && n <= 32);
	return n > 0 ? x86insn_reach(code, size, starts, n, reached, bad) : -2;
}

TEST(x86insn_reach)
{
	/* xor eax, eax; ret; then bytes that decode (data): not reached */
	static const uint8_t data_after_ret[] = { 0x31, 0xc0, 0xc3, 0x90, 0x90 };
	/* jmp +1 over a nop; ret */
	static const uint8_t jump_over[] = { 0xeb, 0x01, 0x90, 0xc3 };
	/* xor; inc eax; jne back to the inc; ret */
	static const uint8_t loop[] = { 0x31, 0xc0, 0xff, 0xc0, 0x75, 0xfc, 0xc3 };
	/* je past the lock prefix (glibc's catomic): into an instruction */
	static const uint8_t skip_lock[] = { 0x74, 0x01, 0xf0, 0x0f, 0xc1, 0x07, 0xc3 };
	/* jmp *rax; then code only a jump table reaches */
	static const uint8_t indirect[] = { 0xff, 0xe0, 0x31, 0xc0, 0xc3 };
	bool r[32];
	size_t bad = 99;

	CHECK(reach(data_after_ret, sizeof(data_after_ret), r, &bad) == 2);
	CHECK(r[0] && r[1] && !r[2] && !r[3]);
	CHECK(reach(jump_over, sizeof(jump_over), r, &bad) == 2);
	CHECK(r[0] && !r[1] && r[2]);
	CHECK(reach(loop, sizeof(loop), r, &bad) == 4);
	CHECK(reach(skip_lock, sizeof(skip_lock), r, &bad) == -1);
	CHECK(bad == 0);
	CHECK(reach(indirect, sizeof(indirect), r, &bad) == 1);
	CHECK(r[0] && !r[1] && !r[2]);
}
