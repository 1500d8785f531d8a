#include "test.h"

#include <stdbool.h>
#include <string.h>

#include "base/arena.h"
#include "cg/emit.h"

/*
 * emit_relax's islands, on programs of many far jumps both ways: after
 * relaxing, every instruction is reachable from the first (the verifier
 * refuses any that is not: "unreachable insn"), and each jump, followed
 * through the trampolines, lands on the mark placed at its label.
 * 5.10's verifier found an island's jump over itself landing on a
 * trampoline of a later island opened among its own.
 */
#define MARK_REG 1		/* r1 = label number: a label's mark */

static uint32_t next_rand(uint32_t *s)
{
	*s = *s * 1103515245u + 12345u;
	return *s >> 8;
}

static bool is_ja(const struct bpf_insn *in)
{
	return in->code == (BPF_JMP | BPF_JA);
}

/* Where a jump at i lands, through any chain of trampolines. */
static int land(const struct emit *e, int i)
{
	int to = i + 1 + e->insns[i].off;

	for (int hops = 0; hops < 64 && to >= 0 && to < e->n && is_ja(&e->insns[to]) &&
			   e->insns[to].src_reg == 1; hops++)
		to = to + 1 + e->insns[to].off;
	return to;
}

static void check_program(uint32_t seed, int nlabels, int njumps, int len)
{
	struct arena a = { 0 };
	struct emit e;
	int *label_at = arena_alloc(&a, sizeof(int) * (size_t)nlabels);
	int *jump_at = arena_alloc(&a, sizeof(int) * (size_t)len);

	emit_init(&e, &a);
	for (int l = 0; l < nlabels; l++) {
		emit_new_label(&e);
		label_at[l] = (int)(next_rand(&seed) % (uint32_t)len);
	}
	for (int i = 0; i < len; i++)
		jump_at[i] = -1;
	/* as a program's faults do, half the jumps go to one place, the end */
	label_at[0] = len - 1;
	for (int j = 0; j < njumps; j++)
		jump_at[next_rand(&seed) % (uint32_t)len] = next_rand(&seed) % 2
			? 0 : (int)(next_rand(&seed) % (uint32_t)nlabels);
	for (int i = 0; i < len; i++) {
		for (int l = 0; l < nlabels; l++)
			if (label_at[l] == i) {
				emit_label(&e, l);
				emit_insn(&e, (struct bpf_insn){ .code = BPF_ALU64 | BPF_MOV | BPF_K,
								 .dst_reg = MARK_REG, .imm = l });
			}
		if (jump_at[i] >= 0) {
			/* conditional: what follows stays reachable */
			emit_jmp_imm(&e, BPF_JEQ, 2, i, jump_at[i]);
		} else {
			emit_insn(&e, (struct bpf_insn){ .code = BPF_ALU64 | BPF_MOV | BPF_K,
							 .dst_reg = 3, .imm = i });
		}
	}
	emit_exit(&e);
	CHECK(emit_relax(&e, e.n) > 0);
	CHECK(emit_resolve(&e) == 0);
	for (int i = 0; i < e.n; i++)	/* the jumps relaxing added: ja */
		if (is_ja(&e.insns[i]) && e.insns[i].src_reg == 0)
			e.insns[i].src_reg = 1;

	char *seen = arena_alloc(&a, (size_t)e.n);
	int *todo = arena_alloc(&a, sizeof(int) * (size_t)e.n * 2);
	int ntodo = 0, unreachable = 0, wrong = 0;

	memset(seen, 0, (size_t)e.n);
	todo[ntodo++] = 0;
	while (ntodo) {
		int i = todo[--ntodo];

		if (i < 0 || i >= e.n || seen[i])
			continue;
		seen[i] = 1;
		const struct bpf_insn *in = &e.insns[i];
		if (in->code == (BPF_JMP | BPF_EXIT))
			continue;
		if (BPF_CLASS(in->code) == BPF_JMP)
			todo[ntodo++] = i + 1 + in->off;
		if (!is_ja(in))
			todo[ntodo++] = i + 1;
	}
	for (int i = 0; i < e.n; i++) {
		unreachable += !seen[i];
		/* a program's own jump lands on its label's mark */
		if (BPF_CLASS(e.insns[i].code) == BPF_JMP && e.insns[i].code != (BPF_JMP | BPF_EXIT) &&
		    e.insns[i].src_reg != 1) {
			int to = land(&e, i);

			wrong += to < 0 || to >= e.n || e.insns[to].dst_reg != MARK_REG ||
				 e.insns[to].code != (BPF_ALU64 | BPF_MOV | BPF_K);
		}
	}
	CHECK(unreachable == 0);
	CHECK(wrong == 0);
	arena_free(&a);
}

TEST(emit_relax_far_jumps_reach)
{
	for (uint32_t seed = 1; seed <= 30; seed++)
		check_program(seed, 40, 1000, 60000);
}
