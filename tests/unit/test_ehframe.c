/*
 * test_ehframe.c -- .eh_frame to unwind rows (obj/ehframe.c, rt/unwind.c).
 *
 * Three kinds of ground truth: a hand-assembled section whose every row
 * is known; the test targets, whose prologues are known instruction by
 * instruction (objdump them); and Debian's libc, checked row by row
 * against binutils' own reading of it (readelf -wF), when readelf is
 * installed.
 */
#include "test.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "obj/ehframe.h"
#include "rt/unwind.h"
#include "obj/usym.h"

#define LIBC "/lib/x86_64-linux-gnu/libc.so.6"

static const struct eh_row *row_at(const struct eh_row *rows, size_t n,
				   uint64_t pc)
{
	const struct eh_row *r = NULL;

	for (size_t i = 0; i < n && rows[i].pc <= pc; i++)
		r = &rows[i];
	return r;
}

static bool is_rule(const struct unwind_row *r, int rule, int32_t cfa_off,
		    int16_t rbp_off)
{
	return r && r->rule == rule && r->cfa_off == cfa_off && r->rbp_off == rbp_off;
}

/*
 * CIE "zR" (code 1, data -8, ra 16, FDE pointers pcrel|sdata4), initial
 * CFA = rsp + 8, ra at CFA - 8; one FDE at 0x1000, 0x40 bytes:
 *	+1  CFA rsp+16, rbp at CFA-16 (after push rbp)
 *	+4  CFA rbp+16 (after mov rbp, rsp)
 *	+7  remember_state
 *	+8  CFA rsp+8 (a ret in the middle)
 *	+9  restore_state: rbp+16 again
 *	+16 the PLT expression
 * and a second FDE at 0x1080, 0x10 bytes, with ra undefined (_start).
 */
static const uint8_t section[] = {
	/* CIE at 0: length 20, id 0, version 1, "zR", 1, -8, 16, aug 1: 0x1b */
	20, 0, 0, 0, 0, 0, 0, 0, 1, 'z', 'R', 0, 1, 0x78, 16, 1, 0x1b,
	0x0c, 7, 8,		/* def_cfa rsp, 8 */
	0x90, 1,		/* offset r16 (ra), 1 * -8 */
	0, 0,			/* nop padding to 24 bytes */
	/* FDE at 24: length 43, CIE pointer 28 (back to 0) */
	43, 0, 0, 0, 28, 0, 0, 0,
	/* pc begin: pcrel sdata4 at section offset 32 -> 0x1000 - 32 */
	0xe0, 0x0f, 0, 0, 0x40, 0, 0, 0, 0,	/* len 0x40, aug len 0 */
	0x41, 0x0e, 16, 0x86, 2,	/* at 1: cfa_offset 16; rbp at cfa-16 */
	0x43, 0x0d, 6,			/* at 4: cfa_register rbp */
	0x43, 0x0a,			/* at 7: remember */
	0x41, 0x0c, 7, 8,		/* at 8: def_cfa rsp, 8 */
	0x41, 0x0b,			/* at 9: restore */
	0x47, 0x0f, 11, 0x77, 8, 0x80, 0, 0x3f, 0x1a, 0x3b, 0x2a, 0x33,
	0x24, 0x22,			/* at 16: the PLT expression */
	/* FDE at 71: length 15, CIE pointer 75 */
	15, 0, 0, 0, 75, 0, 0, 0,
	/* pc begin at offset 79: 0x1080 - 79 */
	0x31, 0x10, 0, 0, 0x10, 0, 0, 0, 0,
	0x07, 16,			/* undefined ra */
	0, 0, 0, 0,			/* terminator */
};

TEST(ehframe_synthetic)
{
	struct eh_row *rows = NULL;
	size_t n = 0;

	CHECK(ehframe_rows(section, sizeof(section), 0, &rows, &n, NULL) == 0);
	CHECK(is_rule(&row_at(rows, n, 0x1000)->r, UW_CFA_RSP, 8, 0));
	CHECK(is_rule(&row_at(rows, n, 0x1001)->r, UW_CFA_RSP, 16, -16));
	CHECK(is_rule(&row_at(rows, n, 0x1004)->r, UW_CFA_RBP, 16, -16));
	CHECK(is_rule(&row_at(rows, n, 0x1007)->r, UW_CFA_RBP, 16, -16));
	CHECK(is_rule(&row_at(rows, n, 0x1008)->r, UW_CFA_RSP, 8, -16));
	CHECK(is_rule(&row_at(rows, n, 0x1009)->r, UW_CFA_RBP, 16, -16));
	CHECK(is_rule(&row_at(rows, n, 0x1010)->r, UW_CFA_PLT, 11, -16));
	CHECK(row_at(rows, n, 0x1040)->r.rule == UW_NONE);	/* the gap */
	CHECK(row_at(rows, n, 0x1085)->r.rule == UW_END);
	CHECK(row_at(rows, n, 0x1090)->r.rule == UW_NONE);
	CHECK(row_at(rows, n, 0xfff) == NULL);
	free(rows);
}

TEST(ehframe_truncated)
{
	struct eh_row *rows = NULL;
	size_t n = 0, bad = SIZE_MAX;

	/* cut inside the second FDE: the first one's rows survive, and the
	 * damage is said to be in an entry past the CIE and the first FDE */
	CHECK(ehframe_rows(section, 80, 0, &rows, &n, &bad) == -EINVAL);
	CHECK(bad > 0 && bad < 80);
	CHECK(is_rule(&row_at(rows, n, 0x1004)->r, UW_CFA_RBP, 16, -16));
	CHECK(row_at(rows, n, 0x1085)->r.rule == UW_NONE);
	free(rows);
	CHECK(ehframe_rows(section, 3, 0, &rows, &n, &bad) == -EINVAL && n == 0 &&
	      bad == 0);
	free(rows);
}

/* The row at symbol name + delta of the file at path. */
static const struct unwind_row *sym_row(const char *path, const char *name,
					uint64_t delta, struct unwind_row **rows,
					size_t *n)
{
	const struct elf_file *f = elf_file_get(path);
	uint64_t off;

	if (!f || unwind_file_rows(f, rows, n) < 0)
		return NULL;
	for (size_t i = 0; i < f->nsyms; i++)
		if (strcmp(f->syms[i].name, name) == 0 &&
		    elf_file_offset(f, f->syms[i].addr + delta, &off))
			return unwind_row_at(*rows, *n, (uint32_t)off);
	return NULL;
}

/* -O0 with frame pointers: push rbp; mov rbp, rsp; ... leave; ret */
TEST(ehframe_target_frame_pointer)
{
	struct unwind_row *rows = NULL;
	size_t n = 0;
	const char *napper = unit_target("napper");

	if (!napper)
		return;
	CHECK(is_rule(sym_row(napper, "main", 0, &rows, &n), UW_CFA_RSP, 8, 0));
	free(rows);
	CHECK(is_rule(sym_row(napper, "main", 1, &rows, &n), UW_CFA_RSP, 16, -16));
	free(rows);
	CHECK(is_rule(sym_row(napper, "main", 4, &rows, &n), UW_CFA_RBP, 16, -16));
	free(rows);
	CHECK(is_rule(sym_row(napper, "wait_for_io", 8, &rows, &n), UW_CFA_RBP, 16, -16));
	free(rows);
	/* crt1's _start: the return address is undefined */
	CHECK(sym_row(napper, "_start", 4, &rows, &n)->rule == UW_END);
	free(rows);
}

/* -O2 without frame pointers: wait_for_io is sub $0x18, %rsp; ... */
TEST(ehframe_target_no_frame_pointer)
{
	struct unwind_row *rows = NULL;
	size_t n = 0;
	const char *napper = unit_target("napper-nofp");

	if (!napper)
		return;
	CHECK(is_rule(sym_row(napper, "wait_for_io", 0, &rows, &n), UW_CFA_RSP, 8, 0));
	free(rows);
	CHECK(is_rule(sym_row(napper, "wait_for_io", 4, &rows, &n), UW_CFA_RSP, 32, 0));
	free(rows);
}

/* libc: a function's first row is CFA = rsp + 8, whatever follows */
TEST(ehframe_libc_entries)
{
	static const char *const funcs[] = { "nanosleep", "clock_nanosleep",
					     "malloc", "read", "memcpy" };
	struct unwind_row *rows = NULL;
	size_t n = 0;

	for (size_t i = 0; i < sizeof(funcs) / sizeof(funcs[0]); i++) {
		const struct unwind_row *r = sym_row(LIBC, funcs[i], 0, &rows, &n);

		if (!is_rule(r, UW_CFA_RSP, 8, 0))
			fprintf(stderr, "libc %s: first row not rsp+8\n", funcs[i]);
		CHECK(is_rule(r, UW_CFA_RSP, 8, 0));
		free(rows);
	}
}

/* readelf's "rsp+8", "rbp+16", "exp", ... as a rule */
static bool readelf_cfa(const char *s, int *rule, int32_t *off)
{
	if (strncmp(s, "rsp+", 4) == 0 || strncmp(s, "rbp+", 4) == 0) {
		*rule = s[1] == 's' ? UW_CFA_RSP : UW_CFA_RBP;
		*off = (int32_t)strtol(s + 4, NULL, 10);
		return true;
	}
	return false;	/* an expression or another register: not compared */
}

/* One table row of readelf -wF: compare it with ours at LOC. */
static int compare_line(char *line, int rbp_col, int ra_col,
			const struct unwind_row *rows, size_t n,
			const struct elf_file *f)
{
	char *tok[32], *save = NULL;
	int ntok = 0, rule;
	int32_t off;
	int16_t rbp = 0;
	uint64_t loc, foff = 0;
	const struct unwind_row *r;

	if (strchr(line, '('))
		return 0;	/* "r10 (r10)": a register rule (clone, vfork) */
	for (char *t = strtok_r(line, " \n", &save); t && ntok < 32;
	     t = strtok_r(NULL, " \n", &save))
		tok[ntok++] = t;
	if (ntok < 3 || ra_col >= ntok || !readelf_cfa(tok[1], &rule, &off))
		return 0;
	loc = strtoull(tok[0], NULL, 16);
	if (rbp_col > 0 && tok[rbp_col][0] == 'c')
		rbp = (int16_t)strtol(tok[rbp_col] + 1, NULL, 10);
	if (strcmp(tok[ra_col], "u") == 0)
		rule = UW_END, off = 0, rbp = 0;
	r = elf_file_offset(f, loc, &foff) ? unwind_row_at(rows, n, (uint32_t)foff)
					   : NULL;
	if (r && r->rule == rule && (rule == UW_END || is_rule(r, rule, off, rbp)))
		return 0;
	fprintf(stderr, "libc at %#lx: readelf %s rbp %s ra %s, ours %d %d %d\n",
		(unsigned long)loc, tok[1], rbp_col > 0 ? tok[rbp_col] : "-",
		tok[ra_col], r ? r->rule : -1, r ? r->cfa_off : 0, r ? r->rbp_off : 0);
	return 1;
}

TEST(ehframe_libc_matches_readelf)
{
	const struct elf_file *f = elf_file_get(LIBC);
	struct unwind_row *rows = NULL;
	size_t n = 0;
	char line[512];
	int rbp_col = -1, ra_col = -1, bad = 0, compared = 0;
	bool in_cie = false;
	FILE *p;

	if (!f || system("command -v readelf >/dev/null 2>&1") != 0)
		return;		/* nothing to compare with */
	CHECK(unwind_file_rows(f, &rows, &n) == 0 && n > 1000);
	p = popen("readelf -wF " LIBC " 2>/dev/null", "r");
	CHECK(p != NULL);
	while (p && fgets(line, sizeof(line), p)) {
		if (strstr(line, "   LOC")) {	/* a table's header: its columns */
			char *save = NULL;
			int col = 0;

			rbp_col = ra_col = -1;
			for (char *t = strtok_r(line, " \n", &save); t;
			     t = strtok_r(NULL, " \n", &save), col++) {
				if (strcmp(t, "rbp") == 0)
					rbp_col = col;
				if (strcmp(t, "ra") == 0)
					ra_col = col;
			}
			continue;
		}
		if (strstr(line, " FDE ") || strstr(line, " CIE ")) {
			in_cie = strstr(line, " CIE ") != NULL;	/* its table: no pcs */
			ra_col = -1;
			continue;
		}
		if (in_cie || ra_col < 0)
			continue;
		bad += compare_line(line, rbp_col, ra_col, rows, n, f);
		compared++;
	}
	if (p)
		pclose(p);
	CHECK(compared > 10000);
	CHECK(bad == 0);
	free(rows);
}

/*
 * The walk's lookup as cg_ustack.c's page_rows and search_rows do it,
 * over spec.h's layout (index rows, then the rows, here from index 0):
 * the row it finds for an offset, or NULL.
 */
static const struct unwind_row *indexed_row(const struct unwind_row *all,
					    uint32_t npages, uint32_t off)
{
	uint32_t p = off >> UNWIND_PAGE_SHIFT;
	uint32_t lo, hi;

	if (p > npages)
		p = npages;
	lo = all[p].pc;
	hi = (uint32_t)all[p].cfa_off;
	for (int k = 0; k < UNWIND_SEARCH_STEPS && hi - lo > 1; k++) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (all[mid].pc > off)
			hi = mid;
		else
			lo = mid;
	}
	return all[lo].pc > off ? NULL : &all[lo];
}

/* Every offset of libc (and past its end) finds through the page index
 * the row a plain search of all rows finds. */
TEST(unwind_index_matches_search)
{
	const struct elf_file *f = elf_file_get(LIBC);
	struct unwind_row *rows = NULL, *all;
	size_t n = 0, need;
	uint32_t npages, end;
	int bad = 0;

	CHECK(f && unwind_file_rows(f, &rows, &n) == 0 && n > 1000);
	if (!rows || n == 0)
		return;
	need = unwind_rows_needed(rows, n);
	npages = (uint32_t)(need - n - 1);
	all = calloc(need, sizeof(*all));
	CHECK(all != NULL);
	unwind_index(rows, n, npages + 1, all);
	memcpy(all + npages + 1, rows, n * sizeof(*rows));
	end = rows[n - 1].pc + 3 * (1u << UNWIND_PAGE_SHIFT);
	for (uint32_t off = 0; off < end && bad < 5; off++) {
		const struct unwind_row *want = unwind_row_at(rows, n, off);
		const struct unwind_row *got = indexed_row(all, npages, off);

		if (want ? got != all + npages + 1 + (want - rows) : got != NULL) {
			fprintf(stderr, "libc offset %#x: index finds row %td, search %td\n",
				off, got ? got - all : -1,
				want ? npages + 1 + (want - rows) : -1);
			bad++;
		}
	}
	CHECK(bad == 0);
	free(all);
	free(rows);
}
