/*
 * test_usdt.c -- the usdt provider without a kernel: every x86-64
 * operand form gcc writes into a <sys/sdt.h> note, parsed into the
 * struct usdt_arg the BPF program interprets (spec/spec.h); the forms we
 * refuse; and the notes of the built targets (build/targets/usdtprog at
 * -O0, usdtopt at -O2), read from the files and made into probes.
 */
#include "test.h"

#include <stdlib.h>

#include "prov/usdt.h"

#define NONE USDT_REG_NONE
#define IP 128
#define PC 0x1000ull

/* pt_regs offsets */
enum { R15 = 0, RBP = 32, RBX = 40, R10 = 56, R8 = 72, RAX = 80, RCX = 88,
       RDX = 96, RSI = 104, RDI = 112, RSP = 152 };

static bool fake_sym(void *arg, const char *name, uint64_t *addr)
{
	static const struct usdt_sym syms[] = {
		{ "counter", 0x4010 }, { "pair", 0x4020 }, { "table", 0x4100 },
		{ "counter.0", 0x4200 },
	};

	(void)arg;
	for (size_t i = 0; i < sizeof(syms) / sizeof(syms[0]); i++)
		if (strcmp(syms[i].name, name) == 0) {
			*addr = syms[i].addr;
			return true;
		}
	return false;
}

static const struct usdt_arg_ctx pie = { PC, true, fake_sym, NULL };
static const struct usdt_arg_ctx exec_file = { PC, false, fake_sym, NULL };

struct form {
	const char *text;
	const struct usdt_arg_ctx *cx;
	struct usdt_arg want;
};

#define A(disp, base, index, scale, shift, size, flags) \
	{ (disp), (base), (index), (scale), (shift), (size), (flags), { 0, 0 } }
#define S USDT_ARG_SIGNED
#define M USDT_ARG_DEREF

static const struct form forms[] = {
	/* registers of every width; the size never exceeds the register */
	{ "-4@%edi", &pie, A(0, RDI, NONE, 0, 0, 4, S) },
	{ "8@%rax", &pie, A(0, RAX, NONE, 0, 0, 8, 0) },
	{ "1@%al", &pie, A(0, RAX, NONE, 0, 0, 1, 0) },
	{ "-1@%ah", &pie, A(0, RAX, NONE, 0, 8, 1, S) },
	{ "1@%dil", &pie, A(0, RDI, NONE, 0, 0, 1, 0) },
	{ "-2@%r8w", &pie, A(0, R8, NONE, 0, 0, 2, S) },
	{ "-4@%r15d", &pie, A(0, R15, NONE, 0, 0, 4, S) },
	{ "2@%si", &pie, A(0, RSI, NONE, 0, 0, 2, 0) },
	{ "8@%ecx", &pie, A(0, RCX, NONE, 0, 0, 4, 0) },
	/* memory */
	{ "-4@-20(%rbp)", &pie, A(-20, RBP, NONE, 0, 0, 4, S | M) },
	{ "8@16(%rsp)", &pie, A(16, RSP, NONE, 0, 0, 8, M) },
	{ "-8@(%rcx)", &pie, A(0, RCX, NONE, 0, 0, 8, S | M) },
	{ "4@0x10(%rbx)", &pie, A(16, RBX, NONE, 0, 0, 4, M) },
	{ "8@-0x8000000000000000(%rbx)", &pie, A(INT64_MIN, RBX, NONE, 0, 0, 8, M) },
	{ "8@0xffffffffffffffff(%rbx)", &pie, A(-1, RBX, NONE, 0, 0, 8, M) },
	/* immediates */
	{ "4@$5", &pie, A(5, NONE, NONE, 0, 0, 4, 0) },
	{ "-4@$-1", &pie, A(-1, NONE, NONE, 0, 0, 4, S) },
	/* scaled index */
	{ "8@(%rcx,%rax,8)", &pie, A(0, RCX, RAX, 3, 0, 8, M) },
	{ "4@8(%rdx,%rbx,4)", &pie, A(8, RDX, RBX, 2, 0, 4, M) },
	{ "-8@8(%rdx,%rdi)", &pie, A(8, RDX, RDI, 0, 0, 8, S | M) },
	{ "-8@(,%r10,8)", &pie, A(0, NONE, R10, 3, 0, 8, S | M) },
	{ "2@-6(%rax,%rcx,2)", &pie, A(-6, RAX, RCX, 1, 0, 2, M) },
	/* symbols: run-time address = ip - pc + sym */
	{ "-4@counter(%rip)", &pie, A(0x4010 - PC, IP, NONE, 0, 0, 4, S | M) },
	{ "8@pair+8(%rip)", &pie, A(0x4020 - PC + 8, IP, NONE, 0, 0, 8, M) },
	{ "-8@8+pair(%rip)", &pie, A(0x4020 - PC + 8, IP, NONE, 0, 0, 8, S | M) },
	{ "4@counter.0(%rip)", &pie, A(0x4200 - PC, IP, NONE, 0, 0, 4, M) },
	{ "-4@counter(%rip)", &exec_file, A(0x4010 - PC, IP, NONE, 0, 0, 4, S | M) },
	/* ... a non-PIE executable's absolute symbols stay constants */
	{ "-8@table(,%r10,8)", &exec_file, A(0x4100, NONE, R10, 3, 0, 8, S | M) },
	{ "-8@table(,%r10,8)", &pie, A(0x4100 - PC, IP, R10, 3, 0, 8, S | M) },
	{ "8@$table", &exec_file, A(0x4100, NONE, NONE, 0, 0, 8, 0) },
	{ "8@$table", &pie, A(0x4100 - PC, IP, NONE, 0, 0, 8, 0) },
	{ "4@counter", &exec_file, A(0x4010, NONE, NONE, 0, 0, 4, M) },
};

static bool same_arg(const struct usdt_arg *a, const struct usdt_arg *b)
{
	return a->disp == b->disp && a->base == b->base && a->index == b->index &&
	       a->scale == b->scale && a->shift == b->shift && a->size == b->size &&
	       a->flags == b->flags;
}

TEST(usdt_arg_forms)
{
	for (size_t i = 0; i < sizeof(forms) / sizeof(forms[0]); i++) {
		const struct form *f = &forms[i];
		struct usdt_arg a;
		const char *why = NULL;
		int rc = usdt_parse_arg(f->text, f->cx, &a, &why);

		if (rc != 0 || !same_arg(&a, &f->want)) {
			fprintf(stderr, "%s (%s): rc %d %s; disp %lld base %u index %u "
				"scale %u shift %u size %u flags %u\n", f->text,
				f->cx->pic ? "pie" : "exec", rc, why ? why : "",
				(long long)a.disp, a.base, a.index, a.scale, a.shift,
				a.size, a.flags);
			unit_failures++;
		}
	}
}

TEST(usdt_arg_refused)
{
	static const char *const bad[] = {
		"16@%rax", "3@%rax", "4%rax", "@%rax", "4@", "4@%xmm0", "4@%rip",
		"4@(%eax)", "4@(%rax,%ebx,2)", "4@(%rax,%rbx,3)", "4@(%rax,%rip)",
		"4@(%rax", "4@%rax,", "4@$5x", "4@8(%rip)", "4@nosuch(%rip)",
		"4@counter(%rbx)", "4@a+b(%rip)", "4@-counter(%rip)", "4@-",
	};

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct usdt_arg a;
		const char *why = NULL;

		if (usdt_parse_arg(bad[i], &pie, &a, &why) == 0 || !why || a.size) {
			fprintf(stderr, "%s: accepted (or no reason, or size left)\n",
				bad[i]);
			unit_failures++;
		}
	}
}

TEST(usdt_args_list)
{
	struct usdt_arg v[USDT_ARGS_MAX];
	const char *why;

	CHECK(usdt_parse_args("-4@%edi 8@16(%rsp)  4@$5", &pie, v, USDT_ARGS_MAX,
			      &why) == 3);
	CHECK(why == NULL);
	CHECK(v[1].base == RSP && v[1].disp == 16 && v[2].disp == 5);
	CHECK(usdt_parse_args("", &pie, v, USDT_ARGS_MAX, &why) == 0 && !why);
	/* stops at the first bad one, keeping those before it */
	CHECK(usdt_parse_args("-4@%edi 4@%xmm0 8@%rax", &pie, v, USDT_ARGS_MAX,
			      &why) == 1);
	CHECK(why != NULL);
	CHECK(usdt_parse_args("1@%al 1@%bl 1@%cl", &pie, v, 2, &why) == 2);
	CHECK(why != NULL);
}

static const struct usdt_note *find_note(const struct usdt_file *uf,
					 const char *name, int nth)
{
	for (int i = 0; i < uf->nnotes; i++)
		if (strcmp(uf->notes[i].name, name) == 0 && nth-- == 0)
			return &uf->notes[i];
	return NULL;
}

static int count_words(const char *s)
{
	int n = 0;

	for (; *s; s++)
		n += *s != ' ' && (s[1] == ' ' || s[1] == '\0');
	return n;
}

TEST(usdt_notes_O0)
{
	struct arena a = { 0 };
	struct usdt_file uf;
	const struct usdt_note *n;
	const char *prog = unit_target("usdtprog");

	if (!prog)
		return;
	CHECK(usdt_file_read(&a, prog, &uf) == 0);
	CHECK(uf.nnotes == 5);
	CHECK(uf.pic);
	CHECK((n = find_note(&uf, "neg__arg", 0)) != NULL);
	if (n) {
		CHECK_STR(n->prov, "usdtprog");
		CHECK_STR(n->args, "-4@$5 -4@$-1");
		CHECK(n->pc != 0 && n->sem != 0);
	}
	CHECK(find_note(&uf, "twice", 1) != NULL);
	CHECK(find_note(&uf, "twice", 2) == NULL);
	for (int i = 0; i < uf.nnotes; i++) {
		struct usdt_arg v[USDT_ARGS_MAX];
		struct usdt_arg_ctx cx = { uf.notes[i].pc, uf.pic, usdt_file_sym, &uf };
		const char *why;

		CHECK(usdt_parse_args(uf.notes[i].args, &cx, v, USDT_ARGS_MAX, &why) ==
		      count_words(uf.notes[i].args));
	}
	CHECK(usdt_file_read(&a, "/nonexistent", &uf) < 0);
	arena_free(&a);
}

/* What gcc -O2 wrote for opt:sib: every operand parses, and the forms
 * the -O0 target never shows are there: a scaled index, a rip-relative
 * symbol found in the symbol table. */
TEST(usdt_notes_O2)
{
	struct arena a = { 0 };
	struct usdt_file uf;
	const struct usdt_note *n;
	uint64_t counter = 0;
	const char *prog = unit_target("usdtopt");

	if (!prog)
		return;
	CHECK(usdt_file_read(&a, prog, &uf) == 0);
	CHECK((n = find_note(&uf, "sib", 0)) != NULL);
	CHECK(usdt_file_sym(&uf, "counter", &counter) && counter != 0);
	if (n) {
		struct usdt_arg v[USDT_ARGS_MAX];
		struct usdt_arg_ctx cx = { n->pc, uf.pic, usdt_file_sym, &uf };
		const char *why;
		int k = usdt_parse_args(n->args, &cx, v, USDT_ARGS_MAX, &why);
		bool sib = false, rip = false;

		CHECK(k == 7);
		for (int i = 0; i < k; i++) {
			sib |= v[i].index != NONE && v[i].scale > 0;
			rip |= v[i].base == IP && v[i].disp == (int64_t)(counter - n->pc);
		}
		CHECK(sib);
		CHECK(rip);
	}
	arena_free(&a);
}

static int keep(const struct probe *p, void *arg)
{
	const struct probe **out = arg;

	*out = p;
	return 0;
}

/* The provider on a -c command that has not run: the probes come from
 * the file, named as DTrace names them. */
TEST(usdt_provider)
{
	struct catalog *cat = catalog__new();
	const struct probe *p = NULL;
	struct probe_desc neg = { .prov = "usdtprog2147483000", .mod = "",
				  .func = "", .name = "neg__arg" };
	struct probe_desc twice = { .prov = "usdtprog2147483000", .mod = "a.out",
				    .func = "main", .name = "twice" };
	struct probe_desc dashed = { .prov = "usdt*2147483000", .mod = "usdtprog",
				     .func = "", .name = "neg-arg" };
	const char *prog = unit_target("usdtprog");

	if (!prog) {
		catalog__free(cat);
		return;
	}
	catalog__set_target_exec(cat, 2147483000, prog);
	CHECK(catalog__match(cat, &neg, keep, &p) == 1);
	if (p) {
		CHECK_STR(p->name, "neg-arg");
		CHECK_STR(p->func, "fire");
		CHECK_STR(p->mod, "usdtprog");
		CHECK(p->kind == PROV_USDT && p->nusites == 1);
		CHECK(p->usites[0].ref_ctr != 0);
		CHECK(catalog__args(cat, p) == 2);
		CHECK_STR(p->args[1].type, "int32_t");
	}
	CHECK(catalog__match(cat, &dashed, NULL, NULL) == 1);
	p = NULL;
	CHECK(catalog__match(cat, &twice, keep, &p) == 1);
	if (p) {
		CHECK(p->nusites == 2);
		CHECK(p->usites[0].uoffset != p->usites[1].uoffset);
		CHECK(p->usites[0].args[0].disp != p->usites[1].args[0].disp);
	}
	catalog__free(cat);
}
