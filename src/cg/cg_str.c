/*
 * cg_str.c -- D's string subroutines: strlen, strjoin, substr, index,
 * strchr, strstr, strtok, basename, dirname, cleanpath, lltostr, toupper,
 * tolower, and the string compares and copies they rest on.  The three
 * tools they are built with, and the NUL padding every string keeps, are
 * described at the head of cg_subr.c.
 */
#include <stdio.h>
#include <string.h>

#include "cg/cg_impl.h"
#include "front/ctype.h"
#include "front/sema.h"
#include "kern/kcaps.h"
#include "kern/ktypes.h"
#include "obj/ksym.h"
#include "prov/catalog.h"

struct val cg_strlen(struct cg *g, struct node *n)
{
	struct val s = cg_str_arg(g, n->args.v[0]);

	cg_str_len(g, s);
	return cg_int_result(g, n, R0);
}

/*
 *	d = zeroed temp of a.size + b.size
 *	r0 = probe_read_kernel_str(d, a.size, a) - 1	strlen(a)
 *	probe_read_kernel_str(d + r0, b.size, b)
 *	d[bound - 1] = 0				truncate
 */
struct val cg_strjoin(struct cg *g, struct node *n)
{
	struct val a = cg_str_arg(g, n->args.v[0]), b = cg_str_arg(g, n->args.v[1]);
	uint32_t bound = n->type.size;
	struct val d = cg_str_temp(g, n, a.size + b.size);

	emit_mov_imm(&g->e, R2, (int32_t)a.size);
	cg_scratch_ptr(g, R3, a.off);
	cg_read_str(g, d.off);
	cg_clamp_range(g, R0, 1, (int32_t)a.size);
	emit_alu_imm(&g->e, BPF_SUB, R0, 1);
	emit_mov_reg(&g->e, R1, R9);
	emit_alu_reg(&g->e, BPF_ADD, R1, R0);
	emit_alu_imm(&g->e, BPF_ADD, R1, (int32_t)d.off);
	emit_mov_imm(&g->e, R2, (int32_t)b.size);
	cg_scratch_ptr(g, R3, b.off);
	emit_call(&g->e, BPF_FUNC_probe_read_kernel_str);
	g->own_reads++;
	if (bound < a.size + b.size - 1)
		for (uint32_t i = bound - 1; i < cg_round8(bound); i++)
			emit_store_imm(&g->e, 1, R9, (int16_t)(d.off + i), 0);
	d.size = cg_round8(bound);
	return d;
}

/*
 * substr(s, index [, count]), with DTrace's rules for negative values:
 *
 *	if (index < 0) index += len;
 *	if (index < 0 && index + count > 0) { count += index; index = 0; }
 *	if (index >= len || index < 0) count = 0;
 *	else if (count < 0) count += len - index;
 *	else if (index + count > size) count = size - index;
 *
 * r4 = len, r5 = index, r8 = count; copy count bytes from s + index.
 * No string is longer than strsize, so the size in these rules is any
 * bound at least as large: the copy stops at the NUL or the result's
 * bound, whichever comes first.
 */
struct val cg_substr(struct cg *g, struct node *n)
{
	struct val s = cg_str_arg(g, n->args.v[0]);
	struct val ix = cg_expr(g, n->args.v[1]);
	struct val cnt = n->args.n > 2 ? cg_expr(g, n->args.v[2]) : ix;
	int32_t size = 1 << 30;	/* strsize, for rules that cannot bind */
	struct val d = cg_str_temp(g, n, n->type.size);
	int l1 = emit_new_label(&g->e), l2 = emit_new_label(&g->e);
	int l3 = emit_new_label(&g->e), copy = emit_new_label(&g->e);
	int done = emit_new_label(&g->e);

	cg_str_len(g, s);
	emit_mov_reg(&g->e, R4, R0);
	cg_load_slot(g, R5, ix.slot);
	if (n->args.n > 2)
		cg_load_slot(g, R8, cnt.slot);
	else
		emit_mov_imm(&g->e, R8, size);
	emit_jmp_imm(&g->e, BPF_JSGE, R5, 0, l1);
	emit_alu_reg(&g->e, BPF_ADD, R5, R4);
	emit_label(&g->e, l1);
	emit_jmp_imm(&g->e, BPF_JSGE, R5, 0, l2);
	emit_mov_reg(&g->e, R1, R5);
	emit_alu_reg(&g->e, BPF_ADD, R1, R8);
	emit_jmp_imm(&g->e, BPF_JSLE, R1, 0, l2);
	emit_alu_reg(&g->e, BPF_ADD, R8, R5);
	emit_mov_imm(&g->e, R5, 0);
	emit_label(&g->e, l2);
	emit_jmp_reg(&g->e, BPF_JSGE, R5, R4, done);
	emit_jmp_imm(&g->e, BPF_JSLT, R5, 0, done);
	emit_jmp_imm(&g->e, BPF_JSGE, R8, 0, l3);
	emit_alu_reg(&g->e, BPF_ADD, R8, R4);
	emit_alu_reg(&g->e, BPF_SUB, R8, R5);
	emit_ja(&g->e, copy);
	emit_label(&g->e, l3);
	emit_mov_reg(&g->e, R1, R5);
	emit_alu_reg(&g->e, BPF_ADD, R1, R8);
	emit_jmp_imm(&g->e, BPF_JSLE, R1, size, copy);
	emit_mov_imm(&g->e, R8, size);
	emit_alu_reg(&g->e, BPF_SUB, R8, R5);
	emit_label(&g->e, copy);
	emit_jmp_imm(&g->e, BPF_JSLE, R8, 0, done);
	cg_copy_part(g, s, d, R5, R8, n->type.size);
	emit_label(&g->e, done);
	return d;
}

/*
 * index(s, t [, pos]) and rindex, with DTrace's (Perl's) rules, and the
 * search that strstr() shares.  Leaves the position or -1 in cell res.
 * Candidates run from p0 by step +1 or -1 while lo <= p <= hi; a
 * candidate matches when its next strlen(t) bytes are t's.
 *
 * cells: 0 len(s), 1 len(t), 2 p0, 3 hi, 4 p, 5 matched, 6 res
 */
enum { C_LS, C_LT, C_P0, C_HI, C_P, C_MATCH, C_RES, C_COUNT };

/*
 * search()'s start at the position given, in r2, len(s) in r4, len(t) in
 * r5: clamped into the string, or the search decided at once (cell res,
 * then goto done), as Perl's index and rindex do at the ends.
 */
static void search_from(struct cg *g, const struct val *pos, bool reverse,
			uint32_t c, int done)
{
	int ok = emit_new_label(&g->e), nonneg = emit_new_label(&g->e);

	cg_load_slot(g, R2, pos->slot);
	if (reverse) {
		/* pos < 0: 0 if t is empty, else not found */
		emit_jmp_imm(&g->e, BPF_JSGE, R2, 0, nonneg);
		emit_jmp_imm(&g->e, BPF_JNE, R5, 0, done);
		cg_cell_set(g, c + 8 * C_RES, 0);
		emit_ja(&g->e, done);
		emit_label(&g->e, nonneg);
		emit_jmp_reg(&g->e, BPF_JSLE, R2, R4, ok);
		emit_mov_reg(&g->e, R2, R4);
	} else {
		/* pos >= len: len if t is empty, else not found */
		emit_jmp_imm(&g->e, BPF_JSGE, R2, 0, nonneg);
		emit_mov_imm(&g->e, R2, 0);
		emit_label(&g->e, nonneg);
		emit_jmp_reg(&g->e, BPF_JSLT, R2, R4, ok);
		emit_jmp_imm(&g->e, BPF_JNE, R5, 0, done);
		cg_cell_store(g, c + 8 * C_RES, R4);
		emit_ja(&g->e, done);
	}
	emit_label(&g->e, ok);
}

static void search(struct cg *g, struct node *n, struct val s, struct val t,
		   const struct val *pos, bool reverse, uint32_t c)
{
	struct loop outer, inner;
	int go = emit_new_label(&g->e), done = emit_new_label(&g->e);
	int nomatch = emit_new_label(&g->e), next = emit_new_label(&g->e);

#define CELL(i) (c + 8 * (i))
	cg_cell_set(g, CELL(C_RES), -1);
	cg_str_len(g, s);
	cg_cell_store(g, CELL(C_LS), R0);
	cg_str_len(g, t);
	cg_cell_store(g, CELL(C_LT), R0);
	cg_cell_load(g, R4, CELL(C_LS));
	cg_cell_load(g, R5, CELL(C_LT));
	/* both empty: 0 */
	emit_mov_reg(&g->e, R1, R4);
	emit_alu_reg(&g->e, BPF_OR, R1, R5);
	emit_jmp_imm(&g->e, BPF_JNE, R1, 0, go);
	cg_cell_set(g, CELL(C_RES), 0);
	emit_ja(&g->e, done);
	emit_label(&g->e, go);
	/* p0: 0 (index) or len(s) (rindex), or the position given */
	if (reverse)
		emit_mov_reg(&g->e, R2, R4);
	else
		emit_mov_imm(&g->e, R2, 0);
	if (pos)
		search_from(g, pos, reverse, c, done);
	/* hi = len(s) - len(t), and below len(s) for index() */
	emit_mov_reg(&g->e, R3, R4);
	emit_alu_reg(&g->e, BPF_SUB, R3, R5);
	if (reverse) {
		int ok = emit_new_label(&g->e);

		emit_jmp_reg(&g->e, BPF_JSLE, R2, R3, ok);
		emit_mov_reg(&g->e, R2, R3);		/* p0 = min(p0, hi) */
		emit_label(&g->e, ok);
	} else {
		int ok = emit_new_label(&g->e);

		emit_jmp_reg(&g->e, BPF_JSLT, R3, R4, ok);
		emit_mov_reg(&g->e, R3, R4);
		emit_alu_imm(&g->e, BPF_SUB, R3, 1);
		emit_label(&g->e, ok);
	}
	cg_cell_store(g, CELL(C_P0), R2);
	cg_cell_store(g, CELL(C_HI), R3);

	cg_loop_begin(g, n, &outer, s.size);
	cg_cell_load(g, R1, CELL(C_P0));
	emit_alu_reg(&g->e, reverse ? BPF_SUB : BPF_ADD, R1, R0);
	if (reverse) {
		emit_jmp_imm(&g->e, BPF_JSLT, R1, 0, outer.brk);
	} else {
		cg_cell_load(g, R2, CELL(C_HI));
		emit_jmp_reg(&g->e, BPF_JSGT, R1, R2, outer.brk);
	}
	cg_cell_store(g, CELL(C_P), R1);
	cg_cell_set(g, CELL(C_MATCH), 0);

	cg_loop_begin(g, n, &inner, t.size);
	cg_cell_load(g, R1, CELL(C_LT));
	emit_jmp_reg(&g->e, BPF_JLT, R0, R1, next);
	cg_cell_set(g, CELL(C_MATCH), 1);
	emit_ja(&g->e, inner.brk);
	emit_label(&g->e, next);
	cg_cell_load(g, R1, CELL(C_P));
	emit_alu_reg(&g->e, BPF_ADD, R1, R0);
	cg_clamp_or(g, R1, s.size - 1, inner.brk);
	cg_byte_at(g, R1, R1, s.off);
	cg_byte_at(g, R2, R0, t.off);
	emit_jmp_reg(&g->e, BPF_JNE, R1, R2, inner.brk);
	cg_loop_end(g, n, &inner);

	cg_cell_load(g, R1, CELL(C_MATCH));
	emit_jmp_imm(&g->e, BPF_JEQ, R1, 0, nomatch);
	cg_cell_load(g, R1, CELL(C_P));
	cg_cell_store(g, CELL(C_RES), R1);
	emit_ja(&g->e, outer.brk);
	emit_label(&g->e, nomatch);
	cg_loop_end(g, n, &outer);
	emit_label(&g->e, done);
#undef CELL
}

struct val cg_index(struct cg *g, struct node *n)
{
	struct val s = cg_str_arg(g, n->args.v[0]), t = cg_str_arg(g, n->args.v[1]);
	struct val pos = n->args.n > 2 ? cg_expr(g, n->args.v[2]) : s;
	uint32_t c = cg_cells_new(g, n, C_COUNT);

	search(g, n, s, t, n->args.n > 2 ? &pos : NULL,
	       n->fn == DF_RINDEX, c);
	cg_cell_load(g, R0, c + 8 * C_RES);
	return cg_int_result(g, n, R0);
}

/* The rest of s from the position in cell `at` (or NULL when it is < 0):
 * strstr, strchr and strrchr. */
static struct val suffix(struct cg *g, struct node *n, struct val s,
			 uint32_t at)
{
	struct val d = cg_str_temp(g, n, n->type.size);
	int none = emit_new_label(&g->e);

	int done = emit_new_label(&g->e);

	cg_cell_load(g, R5, at);
	emit_jmp_imm(&g->e, BPF_JSLT, R5, 0, none);
	emit_mov_imm(&g->e, R8, (int32_t)n->type.size - 1);
	cg_copy_part(g, s, d, R5, R8, n->type.size);
	emit_ja(&g->e, done);
	emit_label(&g->e, none);
	cg_str_set_null(g, d.off);
	emit_label(&g->e, done);
	return d;
}

struct val cg_strstr(struct cg *g, struct node *n)
{
	struct val s = cg_str_arg(g, n->args.v[0]), t = cg_str_arg(g, n->args.v[1]);
	uint32_t c = cg_cells_new(g, n, C_COUNT);

	search(g, n, s, t, NULL, false, c);
	return suffix(g, n, s, c + 8 * C_RES);
}

/*
 * strchr(s, c) / strrchr(s, c): the first (last) c in s, and what
 * follows it.  cells: 0 len, 1 c, 2 position found
 */
struct val cg_strchr(struct cg *g, struct node *n)
{
	struct val s = cg_str_arg(g, n->args.v[0]);
	struct val ch = cg_expr(g, n->args.v[1]);
	bool reverse = n->fn == DF_STRRCHR;
	uint32_t c = cg_cells_new(g, n, 3);
	struct loop l;
	int next = emit_new_label(&g->e);

	cg_cell_set(g, c + 16, -1);
	cg_str_len(g, s);
	cg_cell_store(g, c, R0);
	cg_load_slot(g, R0, ch.slot);
	emit_alu_imm(&g->e, BPF_AND, R0, 0xff);
	cg_cell_store(g, c + 8, R0);
	cg_loop_begin(g, n, &l, s.size);
	cg_cell_load(g, R1, c);
	emit_jmp_reg(&g->e, BPF_JGE, R0, R1, l.brk);		/* k >= len */
	if (reverse) {						/* p = len - 1 - k */
		emit_alu_imm(&g->e, BPF_SUB, R1, 1);
		emit_alu_reg(&g->e, BPF_SUB, R1, R0);
		emit_mov_reg(&g->e, R0, R1);
	}
	cg_clamp_or(g, R0, s.size - 1, l.brk);
	cg_byte_at(g, R1, R0, s.off);
	cg_cell_load(g, R2, c + 8);
	emit_jmp_reg(&g->e, BPF_JNE, R1, R2, next);
	cg_cell_store(g, c + 16, R0);
	emit_ja(&g->e, l.brk);
	emit_label(&g->e, next);
	cg_loop_end(g, n, &l);
	return suffix(g, n, s, c + 16);
}

/*
 * strtok(s, delims), as DTrace: the token of s that starts at its first
 * byte not in delims and ends before the next byte that is; NULL when
 * there is none.  strtok(NULL, delims) goes on where the firing's last
 * strtok stopped, in that call's string, in this clause or an earlier
 * one: the program keeps a copy of it (state at strtok_off,
 * cg_strtok_reserve), so that s may change between the calls.  pos < 0: nothing to go on from, a fault at address 0 as in
 * DTrace (whose saved pointer is then NULL).  An s that is NULL when the
 * clause runs (strstr()'s no-match) is NULL too: DTrace's strtok tests the
 * address, not how it was written.
 *
 *	if (s given and not NULL) { buf = s; pos = 0 }
 *	else if (pos < 0) fault(BADADDR, 0)
 *	map = a bit for each byte of delims
 *	for (i = pos; buf[i] && map[buf[i]]; i++) ;
 *	if (!buf[i]) { pos = -1; return NULL }
 *	for (j = i; buf[j] && !map[buf[j]]; j++) ;
 *	pos = j; return buf[i, j)
 *
 * cells: 0 i, 1 j
 */
#define TOKMAP_SIZE 32	/* 256 bits */

/* reg = map bit of byte c (in reg c, 0..255): (map[c >> 3] >> (c & 7)) & 1;
 * clobbers r1, r2 */
static void tokmap_bit(struct cg *g, int reg, int c, uint32_t map)
{
	emit_mov_reg(&g->e, R1, c);
	emit_alu_imm(&g->e, BPF_RSH, R1, 3);
	cg_byte_at(g, R2, R1, map);
	emit_mov_reg(&g->e, R1, c);
	emit_alu_imm(&g->e, BPF_AND, R1, 7);
	emit_alu_reg(&g->e, BPF_RSH, R2, R1);
	emit_alu_imm(&g->e, BPF_AND, R2, 1);
	if (reg != R2)
		emit_mov_reg(&g->e, reg, R2);
}

/* map = a bit for each byte of delims (a loop to its NUL):
 *	map[c >> 3] |= 1 << (c & 7) */
static void tokmap_fill(struct cg *g, struct node *n, struct val delims,
			uint32_t map)
{
	struct loop l;

	cg_zero_words(g, R9, map, TOKMAP_SIZE);
	cg_loop_begin(g, n, &l, delims.size);
	cg_clamp_or(g, R0, delims.size - 1, l.brk);
	cg_byte_at(g, R3, R0, delims.off);				/* r3 = c */
	emit_jmp_imm(&g->e, BPF_JEQ, R3, 0, l.brk);
	emit_mov_reg(&g->e, R4, R3);
	emit_alu_imm(&g->e, BPF_RSH, R4, 3);			/* r4 = c >> 3 */
	cg_byte_at(g, R2, R4, map);
	emit_mov_imm(&g->e, R1, 1);
	emit_alu_imm(&g->e, BPF_AND, R3, 7);
	emit_alu_reg(&g->e, BPF_LSH, R1, R3);
	emit_alu_reg(&g->e, BPF_OR, R2, R1);
	emit_alu_reg(&g->e, BPF_ADD, R4, R9);
	emit_store(&g->e, 1, R4, (int16_t)map, R2);
	cg_loop_end(g, n, &l);
}

/* cell = the first position from cell's own whose byte of buf is NUL or
 * has map bit `in` (0: stop at a delimiter; 1: at a non-delimiter) */
static void tok_scan(struct cg *g, struct node *n, struct val buf,
		     uint32_t map, uint32_t cell, int stop_bit)
{
	struct loop l;
	uint32_t from = cg_cells_new(g, n, 1);

	cg_cell_load(g, R1, cell);
	cg_cell_store(g, from, R1);
	cg_loop_begin(g, n, &l, buf.size);
	cg_cell_load(g, R3, from);
	emit_alu_reg(&g->e, BPF_ADD, R3, R0);			/* i = from + k */
	cg_clamp_or(g, R3, buf.size - 1, l.brk);
	cg_cell_store(g, cell, R3);
	cg_byte_at(g, R4, R3, buf.off);
	emit_jmp_imm(&g->e, BPF_JEQ, R4, 0, l.brk);
	tokmap_bit(g, R2, R4, map);
	emit_jmp_imm(&g->e, BPF_JEQ, R2, stop_bit, l.brk);
	cg_loop_end(g, n, &l);
}

/* strtok(NULL, d): on from the saved position, or a fault at 0 */
static void go_on_or_fault(struct cg *g, int16_t pos, int go)
{
	emit_load(&g->e, 8, R1, R9, pos);
	emit_jmp_imm(&g->e, BPF_JSGE, R1, 0, go);
	emit_mov_imm(&g->e, R8, 0);
	cg_fault(g, FLT_BADADDR, R8);
}

struct val cg_strtok(struct cg *g, struct node *n)
{
	struct node *a0 = n->args.v[0];
	struct val buf = { .str = true, .off = g->strtok_off + 8,
			   .size = cg_round8(n->type.size) };
	struct val s = a0->kind == N_INT ? buf : cg_str_arg(g, a0);
	struct val delims = cg_str_arg(g, n->args.v[1]);
	struct val d = cg_str_temp(g, n, n->type.size);
	uint32_t map = cg_temp_new(g, n, TOKMAP_SIZE), c = cg_cells_new(g, n, 2);
	int16_t pos = (int16_t)g->strtok_off;
	int go = emit_new_label(&g->e), null = emit_new_label(&g->e);
	int done = emit_new_label(&g->e);

	if (!g->strtok_off)	/* cg_strtok_reserve did not see this call */
		diag_fail(g->d, n->line, n->col, "D_INTERNAL",
			  "strtok( ) outside the program's clauses");

	if (a0->kind != N_INT) {
		int given = emit_new_label(&g->e);

		emit_load(&g->e, 2, R0, R9, (int16_t)s.off);
		emit_jmp_imm(&g->e, BPF_JNE, R0, STR_NULL_MARK << 8, given);
		go_on_or_fault(g, pos, go);
		emit_label(&g->e, given);
		emit_mov_imm(&g->e, R2, (int32_t)(s.size < buf.size ? s.size
								 : buf.size));
		cg_scratch_ptr(g, R3, s.off);
		cg_read_str(g, buf.off);
		emit_store_imm(&g->e, 8, R9, pos, 0);
	} else {
		go_on_or_fault(g, pos, go);
	}
	emit_label(&g->e, go);
	tokmap_fill(g, n, delims, map);
	emit_load(&g->e, 8, R1, R9, pos);
	cg_cell_store(g, c, R1);
	tok_scan(g, n, buf, map, c, 0);				/* i */
	cg_cell_load(g, R1, c);
	cg_clamp_or(g, R1, buf.size - 1, null);
	cg_byte_at(g, R1, R1, buf.off);
	emit_jmp_imm(&g->e, BPF_JEQ, R1, 0, null);
	cg_cell_load(g, R1, c);
	cg_cell_store(g, c + 8, R1);
	tok_scan(g, n, buf, map, c + 8, 1);			/* j */
	cg_cell_load(g, R5, c);
	cg_cell_load(g, R8, c + 8);
	emit_store(&g->e, 8, R9, pos, R8);
	emit_alu_reg(&g->e, BPF_SUB, R8, R5);
	cg_copy_part(g, buf, d, R5, R8, n->type.size);
	emit_ja(&g->e, done);
	emit_label(&g->e, null);
	emit_store_imm(&g->e, 8, R9, pos, -1);
	cg_str_set_null(g, d.off);
	emit_label(&g->e, done);
	return d;
}

/* A search for a call: inline definitions are shared by every use (an
 * inline may use another twice), so each is looked into once. */
struct call_search {
	struct arena *a;
	enum dfunc fn;
	const struct node **seen;	/* inline definitions looked into */
	int nseen, cap;
};

static const struct node *find_call(struct call_search *cs,
				    const struct node *n);

static const struct node *list_find_call(struct call_search *cs,
					 const struct node_list *l)
{
	const struct node *f = NULL;

	for (int i = 0; i < l->n && !f; i++)
		f = find_call(cs, l->v[i]);
	return f;
}

static bool seen_inline(struct call_search *cs, const struct node *def)
{
	for (int i = 0; i < cs->nseen; i++)
		if (cs->seen[i] == def)
			return true;
	*ARENA_PUSH(cs->a, cs->seen, cs->nseen, cs->cap) = def;
	return false;
}

/* A call of function cs->fn in the tree at n, or NULL */
static const struct node *find_call(struct call_search *cs,
				    const struct node *n)
{
	const struct node *f = NULL;

	if (!n)
		return NULL;
	if (n->kind == N_CALL && n->fn == cs->fn)
		return n;
	if (n->kind == N_IDENT && n->symkind == SYM_INLINE)
		return seen_inline(cs, n->a) ? NULL : find_call(cs, n->a);
	const struct node *kids[] = { n->a, n->b, n->c, n->call };

	for (size_t i = 0; i < sizeof(kids) / sizeof(kids[0]) && !f; i++)
		f = find_call(cs, kids[i]);
	if (!f)
		f = list_find_call(cs, &n->args);
	if (!f)
		f = list_find_call(cs, &n->body);
	if (!f)
		f = list_find_call(cs, &n->else_body);
	return f;
}

bool cg_clause_calls(struct cg *g, const struct clause *c, enum dfunc fn)
{
	struct call_search cs = { .a = g->a, .fn = fn };

	return find_call(&cs, c->pred) || list_find_call(&cs, &c->body);
}

/*
 * The state: the position, then a string of strtok's bound (strsize),
 * one for the program's clauses: DTrace keeps the saved pointer in the
 * firing's machine state (dtrace_probe clears mstate.dtms_strtok once,
 * before the first enabling), so strtok(NULL, d) goes on from where an
 * earlier clause of the same firing stopped.
 */
void cg_strtok_reserve(struct cg *g, const struct cg_clause *clauses,
		       int nclauses)
{
	struct call_search cs = { .a = g->a, .fn = DF_STRTOK };

	g->strtok_off = 0;
	g->strtok_first = NULL;
	for (int i = 0; i < nclauses && !g->strtok_first; i++) {
		const struct clause *c = clauses[i].clause;
		const struct node *call = find_call(&cs, c->pred);

		if (!call)
			call = list_find_call(&cs, &c->body);
		if (!call)
			continue;
		g->tmp = g->tmp_base;
		g->strtok_off = cg_temp_new(g, call, 8 + call->type.size);
		g->tmp_base = g->tmp;
		g->strtok_first = &clauses[i];
	}
}

/*
 * basename(s) and dirname(s), as DTrace: scanning back from the end,
 * lastbase is the last non-slash, firstbase the first character after
 * the slash before it, lastdir the last non-slash before that.
 *
 * cells: 0 len, 1 phase, 2 lastbase, 3 firstbase, 4 lastdir
 */
static void put_const(struct cg *g, struct val d, const char *s)
{
	for (size_t i = 0; s[i]; i++)
		emit_store_imm(&g->e, 1, R9, (int16_t)(d.off + i), s[i]);
}

struct val cg_basename(struct cg *g, struct node *n)
{
	struct val s = cg_str_arg(g, n->args.v[0]);
	bool dir = n->fn == DF_DIRNAME;
	uint32_t c = cg_cells_new(g, n, 5);
	struct val d = cg_str_temp(g, n, n->type.size);
	struct loop l;
	int nonempty = emit_new_label(&g->e), done = emit_new_label(&g->e);
	int p1 = emit_new_label(&g->e), p2 = emit_new_label(&g->e);
	int cont = emit_new_label(&g->e);
	int slashes = emit_new_label(&g->e);
	int dot = emit_new_label(&g->e);

	cg_str_len(g, s);
	emit_jmp_imm(&g->e, BPF_JNE, R0, 0, nonempty);
	put_const(g, d, ".");
	emit_ja(&g->e, done);
	emit_label(&g->e, nonempty);
	cg_cell_store(g, c, R0);
	cg_cell_set(g, c + 8, 0);
	cg_cell_set(g, c + 16, -1);
	cg_cell_set(g, c + 24, -1);
	cg_cell_set(g, c + 32, -1);

	cg_loop_begin(g, n, &l, s.size);
	cg_cell_load(g, R1, c);
	emit_jmp_reg(&g->e, BPF_JGE, R0, R1, l.brk);
	emit_alu_imm(&g->e, BPF_SUB, R1, 1);			/* i = len-1-k */
	emit_alu_reg(&g->e, BPF_SUB, R1, R0);
	cg_clamp_or(g, R1, s.size - 1, l.brk);
	emit_mov_reg(&g->e, R3, R1);
	cg_byte_at(g, R2, R1, s.off);				/* r2 = s[i] */
	cg_cell_load(g, R4, c + 8);				/* phase */
	emit_jmp_imm(&g->e, BPF_JEQ, R4, 1, p1);
	emit_jmp_imm(&g->e, BPF_JEQ, R4, 2, p2);
	emit_jmp_imm(&g->e, BPF_JEQ, R2, '/', l.head);		/* phase 0 */
	cg_cell_store(g, c + 16, R3);
	cg_cell_set(g, c + 8, 1);
	emit_ja(&g->e, l.head);
	emit_label(&g->e, p1);
	emit_jmp_imm(&g->e, BPF_JNE, R2, '/', l.head);
	emit_alu_imm(&g->e, BPF_ADD, R3, 1);
	cg_cell_store(g, c + 24, R3);
	cg_cell_set(g, c + 8, 2);
	emit_ja(&g->e, l.head);
	emit_label(&g->e, p2);
	emit_jmp_imm(&g->e, BPF_JEQ, R2, '/', cont);
	cg_cell_store(g, c + 32, R3);
	emit_ja(&g->e, l.brk);
	emit_label(&g->e, cont);
	cg_loop_end(g, n, &l);

	/* r5 = start, r8 = end (inclusive) */
	cg_cell_load(g, R1, c + 16);
	emit_jmp_imm(&g->e, BPF_JSLT, R1, 0, slashes);
	cg_cell_load(g, R2, c + 24);
	if (dir) {
		int haveslash = emit_new_label(&g->e);

		emit_jmp_imm(&g->e, BPF_JSLT, R2, 0, dot);
		emit_mov_imm(&g->e, R5, 0);
		cg_cell_load(g, R8, c + 32);
		emit_jmp_imm(&g->e, BPF_JSGE, R8, 0, haveslash);
		emit_mov_imm(&g->e, R8, 0);
		emit_label(&g->e, haveslash);
	} else {
		int ok = emit_new_label(&g->e);

		emit_jmp_imm(&g->e, BPF_JSGE, R2, 0, ok);
		emit_mov_imm(&g->e, R2, 0);
		emit_label(&g->e, ok);
		emit_mov_reg(&g->e, R5, R2);
		emit_mov_reg(&g->e, R8, R1);
	}
	emit_alu_reg(&g->e, BPF_SUB, R8, R5);			/* count */
	emit_alu_imm(&g->e, BPF_ADD, R8, 1);
	cg_copy_part(g, s, d, R5, R8, n->type.size);
	emit_ja(&g->e, done);
	emit_label(&g->e, slashes);				/* all slashes */
	put_const(g, d, "/");
	if (dir) {
		emit_ja(&g->e, done);
		emit_label(&g->e, dot);
		put_const(g, d, ".");
	}
	emit_label(&g->e, done);
	return d;
}

/*
 * cleanpath(s): the path with empty, "." and "x/.." elements removed, as
 * Go's path.Clean (which is what dtrace(1) prints), except that "" stays
 * "".  One loop of small steps, each of one of three kinds:
 *
 *	SCAN  at s[r]: skip a '/' or a "." element; for "..", drop the last
 *	      element written (then BACK) or write ".." when there is none;
 *	      else start an element (a '/' first unless at the start): COPY
 *	COPY  one byte of the element from s[r] to out[w]
 *	BACK  w-- until out[w] is '/' or nothing more may be dropped
 *
 * out is a work buffer; the result is copied from it, w bytes.
 * cells: 0 n, 1 r, 2 w, 3 dotdot (out[0, dotdot) must stay), 4 rooted,
 * 5 step kind
 */
enum { CP_N, CP_R, CP_W, CP_DOTDOT, CP_ROOTED, CP_KIND, CP_COUNT };
enum { CP_SCAN, CP_COPY, CP_BACK };

/* out[w++] = reg (or imm when reg < 0) */
static void out_put(struct cg *g, uint32_t c, struct val out, int reg,
		    int32_t imm, int skip)
{
	cg_cell_load(g, R4, c + 8 * CP_W);
	cg_clamp_or(g, R4, out.size - 1, skip);
	emit_mov_reg(&g->e, R5, R4);
	emit_alu_reg(&g->e, BPF_ADD, R5, R9);
	if (reg >= 0)
		emit_store(&g->e, 1, R5, (int16_t)out.off, reg);
	else
		emit_store_imm(&g->e, 1, R5, (int16_t)out.off, imm);
	emit_alu_imm(&g->e, BPF_ADD, R4, 1);
	cg_cell_store(g, c + 8 * CP_W, R4);
}

/* reg = s[cell r + k], 0 past the end; clobbers r1 */
static void path_byte(struct cg *g, uint32_t c, struct val s, int reg, int k,
		      int skip)
{
	cg_cell_load(g, reg, c + 8 * CP_R);
	if (k)
		emit_alu_imm(&g->e, BPF_ADD, reg, k);
	cg_clamp_or(g, reg, s.size - 1, skip);
	cg_byte_at(g, reg, reg, s.off);
}

static void cell_add(struct cg *g, uint32_t cell, int32_t k)
{
	cg_cell_load(g, R1, cell);
	emit_alu_imm(&g->e, BPF_ADD, R1, k);
	cg_cell_store(g, cell, R1);
}

/* cleanpath's SCAN step (above), ending in a jump to the loop's head */
static void cleanpath_scan(struct cg *g, uint32_t c, struct val s,
			   struct val out, const struct loop *l)
{
	int dot1 = emit_new_label(&g->e), elem = emit_new_label(&g->e);
	int noslash = emit_new_label(&g->e);

#define CP(i) (c + 8 * (i))
	cg_cell_load(g, R1, CP(CP_R));
	cg_cell_load(g, R2, CP(CP_N));
	emit_jmp_reg(&g->e, BPF_JGE, R1, R2, l->brk);
	path_byte(g, c, s, R2, 0, l->brk);
	emit_jmp_imm(&g->e, BPF_JNE, R2, '/', dot1);
	cell_add(g, CP(CP_R), 1);				/* "/" */
	emit_ja(&g->e, l->head);
	emit_label(&g->e, dot1);
	emit_jmp_imm(&g->e, BPF_JNE, R2, '.', elem);
	path_byte(g, c, s, R2, 1, l->brk);
	int dot2 = emit_new_label(&g->e), one = emit_new_label(&g->e);

	emit_jmp_imm(&g->e, BPF_JEQ, R2, 0, one);
	emit_jmp_imm(&g->e, BPF_JNE, R2, '/', dot2);
	emit_label(&g->e, one);
	cell_add(g, CP(CP_R), 1);				/* "." */
	emit_ja(&g->e, l->head);
	emit_label(&g->e, dot2);
	emit_jmp_imm(&g->e, BPF_JNE, R2, '.', elem);
	path_byte(g, c, s, R2, 2, l->brk);
	int two = emit_new_label(&g->e), keep = emit_new_label(&g->e);

	emit_jmp_imm(&g->e, BPF_JEQ, R2, 0, two);
	emit_jmp_imm(&g->e, BPF_JNE, R2, '/', elem);
	emit_label(&g->e, two);					/* ".." */
	cell_add(g, CP(CP_R), 2);
	cg_cell_load(g, R1, CP(CP_W));
	cg_cell_load(g, R2, CP(CP_DOTDOT));
	emit_jmp_reg(&g->e, BPF_JLE, R1, R2, keep);
	emit_alu_imm(&g->e, BPF_SUB, R1, 1);
	cg_cell_store(g, CP(CP_W), R1);
	cg_cell_set(g, CP(CP_KIND), CP_BACK);
	emit_ja(&g->e, l->head);
	emit_label(&g->e, keep);
	cg_cell_load(g, R3, CP(CP_ROOTED));
	emit_jmp_imm(&g->e, BPF_JNE, R3, 0, l->head);
	emit_jmp_imm(&g->e, BPF_JEQ, R1, 0, noslash);
	out_put(g, c, out, -1, '/', l->brk);
	emit_label(&g->e, noslash);
	out_put(g, c, out, -1, '.', l->brk);
	out_put(g, c, out, -1, '.', l->brk);
	cg_cell_load(g, R1, CP(CP_W));
	cg_cell_store(g, CP(CP_DOTDOT), R1);
	emit_ja(&g->e, l->head);
	emit_label(&g->e, elem);		/* an element: '/' unless first */
	cg_cell_load(g, R1, CP(CP_W));
	cg_cell_load(g, R3, CP(CP_ROOTED));
	emit_alu_reg(&g->e, BPF_SUB, R1, R3);	/* w - rooted: 0 at the start */
	cg_cell_set(g, CP(CP_KIND), CP_COPY);
	emit_jmp_imm(&g->e, BPF_JEQ, R1, 0, l->head);
	out_put(g, c, out, -1, '/', l->brk);
	emit_ja(&g->e, l->head);
#undef CP
}

struct val cg_cleanpath(struct cg *g, struct node *n)
{
	struct val s = cg_str_arg(g, n->args.v[0]);
	struct val d = cg_str_temp(g, n, n->type.size);
	struct val out = { .str = true, .size = s.size + 8 };
	uint32_t c = cg_cells_new(g, n, CP_COUNT);
	struct loop l;
	int done = emit_new_label(&g->e), rel = emit_new_label(&g->e);
	int copy = emit_new_label(&g->e), back = emit_new_label(&g->e);
	int to_scan = emit_new_label(&g->e), notempty = emit_new_label(&g->e);

#define CP(i) (c + 8 * (i))
	out.off = cg_temp_new(g, n, out.size);
	cg_str_len(g, s);
	emit_jmp_imm(&g->e, BPF_JEQ, R0, 0, done);
	cg_cell_store(g, CP(CP_N), R0);
	for (int i = CP_R; i < CP_COUNT; i++)
		cg_cell_set(g, CP(i), 0);
	emit_load(&g->e, 1, R1, R9, (int16_t)s.off);
	emit_jmp_imm(&g->e, BPF_JNE, R1, '/', rel);
	emit_store_imm(&g->e, 1, R9, (int16_t)out.off, '/');
	for (int i = CP_R; i <= CP_ROOTED; i++)
		cg_cell_set(g, CP(i), 1);
	emit_label(&g->e, rel);

	cg_loop_begin(g, n, &l, 4 * s.size + 8);
	cg_cell_load(g, R1, CP(CP_KIND));
	emit_jmp_imm(&g->e, BPF_JEQ, R1, CP_COPY, copy);
	emit_jmp_imm(&g->e, BPF_JEQ, R1, CP_BACK, back);
	cleanpath_scan(g, c, s, out, &l);
	emit_label(&g->e, copy);				/* COPY */
	cg_cell_load(g, R1, CP(CP_R));
	cg_cell_load(g, R2, CP(CP_N));
	emit_jmp_reg(&g->e, BPF_JGE, R1, R2, to_scan);
	path_byte(g, c, s, R2, 0, l.brk);
	emit_jmp_imm(&g->e, BPF_JEQ, R2, '/', to_scan);
	out_put(g, c, out, R2, 0, l.brk);
	cell_add(g, CP(CP_R), 1);
	emit_ja(&g->e, l.head);
	emit_label(&g->e, back);				/* BACK */
	cg_cell_load(g, R1, CP(CP_W));
	cg_cell_load(g, R2, CP(CP_DOTDOT));
	emit_jmp_reg(&g->e, BPF_JLE, R1, R2, to_scan);
	cg_clamp_or(g, R1, out.size - 1, l.brk);
	cg_byte_at(g, R2, R1, out.off);
	emit_jmp_imm(&g->e, BPF_JEQ, R2, '/', to_scan);
	emit_alu_imm(&g->e, BPF_SUB, R1, 1);
	cg_cell_store(g, CP(CP_W), R1);
	emit_ja(&g->e, l.head);
	emit_label(&g->e, to_scan);
	cg_cell_set(g, CP(CP_KIND), CP_SCAN);
	cg_loop_end(g, n, &l);

	cg_cell_load(g, R8, CP(CP_W));
	emit_jmp_imm(&g->e, BPF_JNE, R8, 0, notempty);
	put_const(g, d, ".");
	emit_ja(&g->e, done);
	emit_label(&g->e, notempty);
	emit_mov_imm(&g->e, R5, 0);
	cg_copy_part(g, out, d, R5, R8, n->type.size);
	emit_label(&g->e, done);
	return d;
#undef CP
}

/* toupper/tolower a word at a time: for each byte b < 0x80,
 *	in = ((b & 0x7f) + (0x80 - lo)) & ~((b & 0x7f) + (0x80 - hi - 1))
 * has its top bit set when lo <= b <= hi; that bit >> 2 is 0x20. */
struct val cg_case(struct cg *g, struct node *n)
{
	struct val s = cg_str_arg(g, n->args.v[0]);
	bool upper = n->fn == DF_TOUPPER;
	uint8_t lo = upper ? 'a' : 'A', hi = upper ? 'z' : 'Z';
	uint64_t ones = 0x0101010101010101ull;
	struct val d = { .str = true, .size = s.size };

	d.off = cg_temp_new(g, n, d.size);
	emit_ld_imm64(&g->e, R4, 0x7f * ones);
	emit_ld_imm64(&g->e, R5, 0x80 * ones);
	for (uint32_t i = 0; i < s.size; i += 8) {
		emit_load(&g->e, 8, R0, R9, (int16_t)(s.off + i));
		emit_mov_reg(&g->e, R1, R0);
		emit_alu_reg(&g->e, BPF_AND, R1, R4);
		emit_mov_reg(&g->e, R2, R1);
		emit_ld_imm64(&g->e, R3, (uint64_t)(0x80 - lo) * ones);
		emit_alu_reg(&g->e, BPF_ADD, R2, R3);
		emit_ld_imm64(&g->e, R3, (uint64_t)(0x80 - hi - 1) * ones);
		emit_alu_reg(&g->e, BPF_ADD, R3, R1);
		emit_alu_imm(&g->e, BPF_XOR, R3, -1);
		emit_alu_reg(&g->e, BPF_AND, R2, R3);
		emit_mov_reg(&g->e, R1, R0);
		emit_alu_imm(&g->e, BPF_XOR, R1, -1);
		emit_alu_reg(&g->e, BPF_AND, R2, R1);
		emit_alu_reg(&g->e, BPF_AND, R2, R5);
		emit_alu_imm(&g->e, BPF_RSH, R2, 2);
		emit_alu_reg(&g->e, BPF_XOR, R0, R2);
		emit_store(&g->e, 8, R9, (int16_t)(d.off + i), R0);
	}
	return d;
}

/*
 * lltostr(v): 19 digits of |v| written right to left at static places,
 * the count of significant ones kept in r5, a '-' put before them, then
 * the copy from the first character truncates to the result's bound.
 */
struct val cg_lltostr(struct cg *g, struct node *n)
{
	struct val v = cg_expr(g, n->args.v[0]);
	struct val t = cg_str_temp(g, n, 24);
	struct val d = cg_str_temp(g, n, n->type.size);
	int pos = emit_new_label(&g->e), start = emit_new_label(&g->e);

	cg_load_slot(g, R1, v.slot);
	emit_mov_imm(&g->e, R4, 0);
	emit_jmp_imm(&g->e, BPF_JSGE, R1, 0, pos);
	emit_alu_imm(&g->e, BPF_NEG, R1, 0);
	emit_mov_imm(&g->e, R4, 1);
	emit_label(&g->e, pos);
	emit_mov_imm(&g->e, R5, 1);
	for (int k = 0; k < 19; k++) {
		int skip = emit_new_label(&g->e);

		emit_mov_reg(&g->e, R2, R1);
		emit_alu_imm(&g->e, BPF_MOD, R2, 10);
		emit_alu_imm(&g->e, BPF_ADD, R2, '0');
		emit_store(&g->e, 1, R9, (int16_t)(t.off + 19 - k), R2);
		emit_alu_imm(&g->e, BPF_DIV, R1, 10);
		emit_jmp_imm(&g->e, BPF_JEQ, R1, 0, skip);
		emit_mov_imm(&g->e, R5, k + 2);
		emit_label(&g->e, skip);
	}
	/* r5 = 20 - ndigits: the first digit; one less with the sign */
	emit_mov_imm(&g->e, R0, 20);
	emit_alu_reg(&g->e, BPF_SUB, R0, R5);
	emit_mov_reg(&g->e, R5, R0);
	emit_jmp_imm(&g->e, BPF_JEQ, R4, 0, start);
	emit_alu_imm(&g->e, BPF_SUB, R5, 1);
	cg_clamp_or(g, R5, 19, start);
	emit_mov_reg(&g->e, R1, R5);
	emit_alu_reg(&g->e, BPF_ADD, R1, R9);
	emit_store_imm(&g->e, 1, R1, (int16_t)t.off, '-');
	emit_label(&g->e, start);
	emit_mov_imm(&g->e, R8, 20);
	cg_copy_part(g, t, d, R5, R8, n->type.size);
	return d;
}
