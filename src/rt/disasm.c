/*
 * disasm.c -- the BPF programs a compile made, as text: what -S shows.
 * See disasm.h.
 *
 * DTrace's -S prints each clause's DIF, one instruction a line with its
 * offset and encoding beside it (libdtrace's dt_dis.c).  dscope has no
 * DIF: the program is the BPF the kernel runs, so that is what is shown,
 * in the notation of the kernel verifier's log (r0 = r1, if r0 != 0x0
 * goto +5, call map_lookup_elem), so that a verifier message and -S read
 * alike.  Maps are named by the names the compile gave them: at this
 * point an ld_imm64 holds the spec's map index, not yet an fd.
 */
#include "rt/disasm.h"

#include <linux/bpf.h>
#include <string.h>

#include "prov/catalog.h"

#define HELPER_NAME(x) #x
static const char *const helper_names[] = { __BPF_FUNC_MAPPER(HELPER_NAME) };

static const char *const alu_ops[16] = {
	[BPF_ADD >> 4] = "+=", [BPF_SUB >> 4] = "-=", [BPF_MUL >> 4] = "*=",
	[BPF_DIV >> 4] = "/=", [BPF_OR >> 4] = "|=", [BPF_AND >> 4] = "&=",
	[BPF_LSH >> 4] = "<<=", [BPF_RSH >> 4] = ">>=", [BPF_NEG >> 4] = "neg",
	[BPF_MOD >> 4] = "%=", [BPF_XOR >> 4] = "^=", [BPF_MOV >> 4] = "=",
	[BPF_ARSH >> 4] = "s>>=", [BPF_END >> 4] = "endian",
};

static const char *const jmp_ops[16] = {
	[BPF_JEQ >> 4] = "==", [BPF_JGT >> 4] = ">", [BPF_JGE >> 4] = ">=",
	[BPF_JSET >> 4] = "&", [BPF_JNE >> 4] = "!=", [BPF_JSGT >> 4] = "s>",
	[BPF_JSGE >> 4] = "s>=", [BPF_JLT >> 4] = "<", [BPF_JLE >> 4] = "<=",
	[BPF_JSLT >> 4] = "s<", [BPF_JSLE >> 4] = "s<=",
};

static const char *size_name(int code)
{
	switch (BPF_SIZE(code)) {
	case BPF_B: return "u8";
	case BPF_H: return "u16";
	case BPF_W: return "u32";
	default: return "u64";
	}
}

static const char *map_name(const struct spec *sp, int32_t idx)
{
	return idx >= 0 && idx < sp->nmaps ? sp->maps[idx].name : "?";
}

/* the source operand: a register or the immediate */
static void src_operand(FILE *f, const struct bpf_insn *in)
{
	if (BPF_SRC(in->code) == BPF_X)
		fprintf(f, "r%d", in->src_reg);
	else
		fprintf(f, "%d", in->imm);
}

static void alu(FILE *f, const struct bpf_insn *in)
{
	const char *op = alu_ops[BPF_OP(in->code) >> 4];
	char r = BPF_CLASS(in->code) == BPF_ALU64 ? 'r' : 'w';

	if (BPF_OP(in->code) == BPF_NEG) {
		fprintf(f, "%c%d = -%c%d", r, in->dst_reg, r, in->dst_reg);
	} else if (BPF_OP(in->code) == BPF_END) {
		fprintf(f, "r%d = %s%d r%d", in->dst_reg,
			BPF_SRC(in->code) == BPF_TO_BE ? "be" : "le", in->imm,
			in->dst_reg);
	} else {
		fprintf(f, "%c%d %s ", r, in->dst_reg, op ? op : "?op");
		if (BPF_SRC(in->code) == BPF_X)
			fprintf(f, "%c%d", r, in->src_reg);
		else
			fprintf(f, "%d", in->imm);
	}
}

static void jmp(FILE *f, const struct bpf_insn *in)
{
	int op = BPF_OP(in->code);

	if (op == BPF_EXIT) {
		fprintf(f, "exit");
	} else if (op == BPF_CALL && in->src_reg == BPF_PSEUDO_CALL) {
		fprintf(f, "call pc%+d", in->imm);
	} else if (op == BPF_CALL) {
		size_t n = sizeof(helper_names) / sizeof(helper_names[0]);

		fprintf(f, "call %s#%d", in->imm >= 0 && (size_t)in->imm < n
			? helper_names[in->imm] : "?", in->imm);
	} else if (op == BPF_JA) {
		fprintf(f, "goto %+d", in->off);
	} else {
		fprintf(f, "if %c%d %s ", BPF_CLASS(in->code) == BPF_JMP32 ? 'w' : 'r',
			in->dst_reg, jmp_ops[op >> 4] ? jmp_ops[op >> 4] : "?op");
		src_operand(f, in);
		fprintf(f, " goto %+d", in->off);
	}
}

/* One instruction; returns how many slots it took (ld_imm64 takes two). */
static int insn(FILE *f, const struct spec *sp, const struct bpf_insn *in,
		int left)
{
	int cls = BPF_CLASS(in->code);

	switch (cls) {
	case BPF_ALU:
	case BPF_ALU64:
		alu(f, in);
		return 1;
	case BPF_JMP:
	case BPF_JMP32:
		jmp(f, in);
		return 1;
	case BPF_LDX:
		fprintf(f, "r%d = *(%s *)(r%d %+d)", in->dst_reg,
			size_name(in->code), in->src_reg, in->off);
		return 1;
	case BPF_STX:
		if (BPF_MODE(in->code) == BPF_ATOMIC) {
			fprintf(f, "lock *(%s *)(r%d %+d) += r%d",
				size_name(in->code), in->dst_reg, in->off,
				in->src_reg);
			return 1;
		}
		fprintf(f, "*(%s *)(r%d %+d) = r%d", size_name(in->code),
			in->dst_reg, in->off, in->src_reg);
		return 1;
	case BPF_ST:
		fprintf(f, "*(%s *)(r%d %+d) = %d", size_name(in->code),
			in->dst_reg, in->off, in->imm);
		return 1;
	case BPF_LD:
		if (in->code != (BPF_LD | BPF_IMM | BPF_DW) || left < 2)
			break;
		if (in->src_reg == BPF_PSEUDO_MAP_FD)
			fprintf(f, "r%d = map[%s]", in->dst_reg,
				map_name(sp, in->imm));
		else if (in->src_reg == BPF_PSEUDO_MAP_VALUE)
			fprintf(f, "r%d = &map[%s] + %d", in->dst_reg,
				map_name(sp, in->imm), in[1].imm);
		else if (in->src_reg == BPF_PSEUDO_FUNC)
			fprintf(f, "r%d = &pc%+d", in->dst_reg, in->imm);
		else
			fprintf(f, "r%d = 0x%llx", in->dst_reg,
				(unsigned long long)(uint32_t)in->imm |
				(unsigned long long)(uint32_t)in[1].imm << 32);
		return 2;
	}
	fprintf(f, "(code 0x%02x)", in->code);
	return 1;
}

static const char *const attach_desc[] = {
	[ATTACH_BEGIN] = "dtrace:::BEGIN", [ATTACH_END] = "dtrace:::END",
	[ATTACH_ERROR] = "dtrace:::ERROR",
	[ATTACH_SYS_ENTER] = "syscall entry probes (raw_syscalls:sys_enter)",
	[ATTACH_SYS_EXIT] = "syscall return probes (raw_syscalls:sys_exit)",
	[ATTACH_UPROBE] = "pid entry and offset probes",
	[ATTACH_URETPROBE] = "pid return probes",
	[ATTACH_USDT] = "USDT probes",
	[ATTACH_KPROBE] = "fbt entry probes",
	[ATTACH_KRETPROBE] = "fbt return probes",
	[ATTACH_FENTRY] = "fbt entry probes (fentry)",
	[ATTACH_FEXIT] = "fbt return probes (fexit)",
};

void disasm_spec(FILE *f, const struct spec *sp)
{
	for (int i = 0; i < sp->nprogs; i++) {
		const struct spec_prog *p = &sp->progs[i];
		const char *what = (size_t)p->attach < sizeof(attach_desc) /
					sizeof(attach_desc[0]) ? attach_desc[p->attach] : NULL;
		int sub = 0;

		fprintf(f, "\nBPF program %s, for ", p->name);
		if (p->probe)
			fprintf(f, "%s:%s:%s:%s", p->probe->prov, p->probe->mod,
				p->probe->func, p->probe->name);
		else
			fprintf(f, "%s", what ? what : "?");
		fprintf(f, ", %d instructions:\n%-4s  %-23s  %s\n", p->ninsns,
			"PC", "OPCODE", "INSTRUCTION");
		for (int pc = 0; pc < p->ninsns;) {
			const struct bpf_insn *in = &p->insns[pc];
			const unsigned char *b = (const unsigned char *)in;

			while (sub < p->nsubprogs && p->subprogs[sub].insn == (uint32_t)pc)
				fprintf(f, "%s:\n", p->subprogs[sub++].name);
			fprintf(f, "%04d  ", pc);
			for (int k = 0; k < 8; k++)
				fprintf(f, "%02x%s", b[k], k < 7 ? " " : "  ");
			pc += insn(f, sp, in, p->ninsns - pc);
			fputc('\n', f);
		}
	}
}
