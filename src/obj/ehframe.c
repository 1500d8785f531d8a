/*
 * ehframe.c -- .eh_frame parsing.  See ehframe.h.
 *
 * The section is a list of entries, each a CIE (common information: the
 * alignment factors, the return address column, how FDE pointers are
 * encoded, and initial instructions) or an FDE (one address range, a
 * back-pointer to its CIE, and the instructions for that range).  The
 * format is the LSB's "Exception Frames" chapter over DWARF's call frame
 * information; what matters here:
 *
 *  - pointers are encoded as the CIE's 'R' augmentation says: almost
 *    always pc-relative signed 4 bytes, but every encoding is read so
 *    that an unusual one is skipped rather than misread; an FDE whose
 *    address cannot be computed (data- or text-relative) is dropped;
 *  - the instructions are a little state machine.  Its state here is
 *    only what an x86-64 frame walk uses: the CFA rule and the rules of
 *    rbp and the return address.  remember_state/restore_state keep a
 *    stack of whole states, CFA included, as GCC expects;
 *  - the one CFA expression worth knowing is the PLT stub's (rsp + 8,
 *    + 8 more past the stub's push); any other makes the row UW_NONE,
 *    and the BPF walk falls back to the frame pointer there.
 *
 * A malformed entry ends the parse: its length, the only way to the
 * next entry, can no longer be trusted.  Reads never go past the
 * section: every read checks the bound and sets the reader's bad flag.
 */
#include "obj/ehframe.h"

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* DWARF register numbers on x86-64 */
#define REG_RBP 6
#define REG_RSP 7

struct rd {
	const uint8_t *start, *p, *end;
	uint64_t vaddr;		/* link-time address of start */
	bool bad;		/* a read went past end */
};

static bool need(struct rd *r, size_t n)
{
	if (r->bad || r->p > r->end || (size_t)(r->end - r->p) < n) {
		r->bad = true;
		return false;
	}
	return true;
}

static uint64_t rd_uint(struct rd *r, size_t n)
{
	uint64_t v = 0;

	if (!need(r, n))
		return 0;
	for (size_t i = 0; i < n; i++)
		v |= (uint64_t)r->p[i] << (8 * i);
	r->p += n;
	return v;
}

static uint64_t rd_uleb(struct rd *r)
{
	uint64_t v = 0;
	unsigned shift = 0;

	while (need(r, 1)) {
		uint8_t b = *r->p++;

		if (shift < 64)
			v |= (uint64_t)(b & 0x7f) << shift;
		shift += 7;
		if (!(b & 0x80))
			break;
	}
	return v;
}

static int64_t rd_sleb(struct rd *r)
{
	uint64_t v = 0;
	unsigned shift = 0;
	uint8_t b = 0;

	while (need(r, 1)) {
		b = *r->p++;
		if (shift < 64)
			v |= (uint64_t)(b & 0x7f) << shift;
		shift += 7;
		if (!(b & 0x80))
			break;
	}
	if (shift < 64 && (b & 0x40))
		v |= ~0ull << shift;
	return (int64_t)v;
}

/* An unsigned operand that is to be factored: past INT64_MAX it is no
 * offset any frame has, so damage. */
static int64_t rd_uleb_signed(struct rd *r)
{
	uint64_t v = rd_uleb(r);

	if (v > INT64_MAX)
		r->bad = true;
	return v > INT64_MAX ? 0 : (int64_t)v;
}

/* An operand times the CIE's data alignment factor: damage (r->bad)
 * when it overflows, not a wrapped value. */
static int64_t factored(struct rd *r, int64_t v, int64_t align)
{
	int64_t x;

	if (__builtin_mul_overflow(v, align, &x)) {
		r->bad = true;
		return 0;
	}
	return x;
}

/* DW_EH_PE_* */
#define PE_OMIT 0xff
#define PE_PCREL 0x10

/* A pointer in encoding enc; *ok is false when its value cannot be
 * known here (an application other than absolute or pc-relative), but
 * it is read all the same, so the reader stays in step. */
static uint64_t rd_encoded(struct rd *r, uint8_t enc, bool *ok)
{
	uint64_t at = r->vaddr + (uint64_t)(r->p - r->start), v;

	*ok = true;
	if (enc == PE_OMIT)
		return 0;
	switch (enc & 0x0f) {
	case 0x00: case 0x04: case 0x0c: v = rd_uint(r, 8); break;
	case 0x01: v = rd_uleb(r); break;
	case 0x02: v = rd_uint(r, 2); break;
	case 0x03: v = rd_uint(r, 4); break;
	case 0x09: v = (uint64_t)rd_sleb(r); break;
	case 0x0a: v = (uint64_t)(int64_t)(int16_t)rd_uint(r, 2); break;
	case 0x0b: v = (uint64_t)(int64_t)(int32_t)rd_uint(r, 4); break;
	default: r->bad = true; return 0;
	}
	switch (enc & 0x70) {
	case 0: break;
	case PE_PCREL: v += at; break;
	default: *ok = false; break;
	}
	return v;
}

struct cie {
	uint64_t code_align;
	int64_t data_align;
	uint64_t ra_reg;
	uint8_t fde_enc;	/* 'R' */
	bool has_z;		/* FDEs carry augmentation data */
	const uint8_t *insns, *insns_end;
};

/* The CIE whose body (after its id) is r; false if it cannot be used. */
static bool parse_cie(struct rd *r, struct cie *c)
{
	uint8_t version = (uint8_t)rd_uint(r, 1);
	const char *aug = (const char *)r->p;
	size_t auglen = strnlen(aug, (size_t)(r->end - r->p));
	bool ok;

	memset(c, 0, sizeof(*c));
	if (version != 1 && version != 3)
		return false;
	if (!need(r, auglen + 1))
		return false;
	r->p += auglen + 1;
	if (strstr(aug, "eh"))	/* a pre-GCC-3 field; never on x86-64 */
		return false;
	c->code_align = rd_uleb(r);
	c->data_align = rd_sleb(r);
	c->ra_reg = version == 1 ? rd_uint(r, 1) : rd_uleb(r);
	c->fde_enc = 0;		/* absptr unless 'R' says otherwise */
	if (aug[0] == 'z') {
		uint64_t len = rd_uleb(r);
		const uint8_t *data_end;

		if (!need(r, len))
			return false;
		data_end = r->p + len;
		c->has_z = true;
		for (const char *a = aug + 1; *a && !r->bad; a++) {
			if (*a == 'R')
				c->fde_enc = (uint8_t)rd_uint(r, 1);
			else if (*a == 'L')
				rd_uint(r, 1);
			else if (*a == 'P')
				rd_encoded(r, (uint8_t)rd_uint(r, 1), &ok);
			else if (*a != 'S' && *a != 'B')
				break;	/* unknown: the length skips the rest */
		}
		if (r->p > data_end)
			return false;
		r->p = data_end;
	}
	c->insns = r->p;
	c->insns_end = r->end;
	return !r->bad && c->code_align != 0;
}

/* ---- the call frame instructions ---- */

enum how { SAME, AT_OFFSET, UNDEF, OTHER };

struct rule {
	uint8_t how;
	int64_t off;		/* AT_OFFSET: saved at CFA + off */
};

enum cfa_kind { CFA_REG, CFA_PLT, CFA_OTHER };

struct state {
	uint8_t cfa_kind;
	uint64_t cfa_reg;
	int64_t cfa_off;	/* CFA_PLT: the threshold */
	struct rule rbp, ra;
};

#define STATE_STACK 16

struct machine {
	const struct cie *cie;
	struct state s, init;	/* init: after the CIE's instructions */
	struct state stack[STATE_STACK];
	int depth;
	uint64_t loc;
	bool emit;		/* false while running a CIE's instructions */
	struct eh_row *rows;
	size_t n, cap;
	bool oom;
};

/* The PLT stub's CFA: DW_OP_breg7 8; DW_OP_breg16 0; DW_OP_lit15;
 * DW_OP_and; DW_OP_litN; DW_OP_ge; DW_OP_lit3; DW_OP_shl; DW_OP_plus --
 * rsp + 8, plus 8 once (rip & 15) >= N, after the stub's push. */
static void cfa_expression(struct state *s, const uint8_t *e, uint64_t len)
{
	static const uint8_t head[] = { 0x77, 0x08, 0x80, 0x00, 0x3f, 0x1a };
	static const uint8_t tail[] = { 0x2a, 0x33, 0x24, 0x22 };

	s->cfa_kind = CFA_OTHER;
	if (len == 11 && memcmp(e, head, 6) == 0 && memcmp(e + 7, tail, 4) == 0 &&
	    e[6] >= 0x30 && e[6] <= 0x4f) {
		s->cfa_kind = CFA_PLT;
		s->cfa_off = e[6] - 0x30;
	}
}

static struct rule *rule_of(struct machine *m, uint64_t reg)
{
	if (reg == REG_RBP)
		return &m->s.rbp;
	if (reg == m->cie->ra_reg)
		return &m->s.ra;
	return NULL;
}

static void set_rule(struct machine *m, uint64_t reg, uint8_t how, int64_t off)
{
	struct rule *r = rule_of(m, reg);

	if (r)
		*r = (struct rule){ how, off };
}

static void restore_rule(struct machine *m, uint64_t reg)
{
	struct rule *r = rule_of(m, reg);

	if (r)
		*r = reg == REG_RBP ? m->init.rbp : m->init.ra;
}

static struct unwind_row reduce(const struct state *s)
{
	struct unwind_row r = { .rule = UW_NONE };

	if (s->ra.how == UNDEF) {
		r.rule = UW_END;
		return r;
	}
	if (s->ra.how != AT_OFFSET || s->ra.off != -8 ||
	    s->cfa_off < INT32_MIN || s->cfa_off > INT32_MAX)
		return r;
	if (s->cfa_kind == CFA_PLT)
		r.rule = UW_CFA_PLT;
	else if (s->cfa_kind == CFA_REG && s->cfa_reg == REG_RSP)
		r.rule = UW_CFA_RSP;
	else if (s->cfa_kind == CFA_REG && s->cfa_reg == REG_RBP)
		r.rule = UW_CFA_RBP;
	else
		return r;
	r.cfa_off = (int32_t)s->cfa_off;
	if (s->rbp.how == AT_OFFSET && s->rbp.off >= INT16_MIN &&
	    s->rbp.off <= INT16_MAX)
		r.rbp_off = (int16_t)s->rbp.off;
	return r;
}

static void push_row(struct machine *m, uint64_t pc, struct unwind_row r)
{
	if (m->n == m->cap) {
		size_t cap = m->cap ? 2 * m->cap : 256;
		struct eh_row *v = realloc(m->rows, cap * sizeof(*v));

		if (!v) {
			m->oom = true;
			return;
		}
		m->rows = v;
		m->cap = cap;
	}
	m->rows[m->n++] = (struct eh_row){ pc, r };
}

/* The state holds from m->loc on: record it, then move to loc. */
static void advance(struct machine *m, uint64_t loc)
{
	if (m->emit)
		push_row(m, m->loc, reduce(&m->s));
	m->loc = loc;
}

/* One instruction; false at the end of the instructions or on damage. */
static bool step(struct machine *m, struct rd *r)
{
	const struct cie *c = m->cie;
	uint8_t op = (uint8_t)rd_uint(r, 1), low = op & 0x3f;
	uint64_t reg, len;
	bool ok;

	if (r->bad)
		return false;
	switch (op >> 6) {
	case 1: advance(m, m->loc + low * c->code_align); return true;
	case 2: set_rule(m, low, AT_OFFSET,
			 factored(r, rd_uleb_signed(r), c->data_align));
		return !r->bad;
	case 3: restore_rule(m, low); return true;
	}
	switch (op) {
	case 0x00: break;					/* nop */
	case 0x01: advance(m, rd_encoded(r, c->fde_enc, &ok)); break;	/* set_loc */
	case 0x02: advance(m, m->loc + rd_uint(r, 1) * c->code_align); break;
	case 0x03: advance(m, m->loc + rd_uint(r, 2) * c->code_align); break;
	case 0x04: advance(m, m->loc + rd_uint(r, 4) * c->code_align); break;
	case 0x05: reg = rd_uleb(r);				/* offset_extended */
		set_rule(m, reg, AT_OFFSET, factored(r, rd_uleb_signed(r), c->data_align));
		break;
	case 0x06: restore_rule(m, rd_uleb(r)); break;		/* restore_extended */
	case 0x07: set_rule(m, rd_uleb(r), UNDEF, 0); break;	/* undefined */
	case 0x08: set_rule(m, rd_uleb(r), SAME, 0); break;	/* same_value */
	case 0x09: reg = rd_uleb(r); rd_uleb(r);		/* register */
		set_rule(m, reg, OTHER, 0);
		break;
	case 0x0a:						/* remember_state */
		if (m->depth == STATE_STACK)
			return false;
		m->stack[m->depth++] = m->s;
		break;
	case 0x0b:						/* restore_state */
		if (m->depth == 0)
			return false;
		m->s = m->stack[--m->depth];
		break;
	case 0x0c: m->s.cfa_kind = CFA_REG;			/* def_cfa */
		m->s.cfa_reg = rd_uleb(r);
		m->s.cfa_off = (int64_t)rd_uleb(r);
		break;
	case 0x0d: m->s.cfa_kind = CFA_REG;			/* def_cfa_register */
		m->s.cfa_reg = rd_uleb(r);
		break;
	case 0x0e: m->s.cfa_off = (int64_t)rd_uleb(r); break;	/* def_cfa_offset */
	case 0x0f: len = rd_uleb(r);				/* def_cfa_expression */
		if (!need(r, len))
			return false;
		cfa_expression(&m->s, r->p, len);
		r->p += len;
		break;
	case 0x10: case 0x16: reg = rd_uleb(r); len = rd_uleb(r);	/* (val_)expression */
		if (!need(r, len))
			return false;
		r->p += len;
		set_rule(m, reg, OTHER, 0);
		break;
	case 0x11: reg = rd_uleb(r);				/* offset_extended_sf */
		set_rule(m, reg, AT_OFFSET, factored(r, rd_sleb(r), c->data_align));
		break;
	case 0x12: m->s.cfa_kind = CFA_REG;			/* def_cfa_sf */
		m->s.cfa_reg = rd_uleb(r);
		m->s.cfa_off = factored(r, rd_sleb(r), c->data_align);
		break;
	case 0x13: m->s.cfa_off = factored(r, rd_sleb(r), c->data_align);	/* def_cfa_offset_sf */
		break;
	case 0x14: case 0x15: reg = rd_uleb(r);			/* val_offset(_sf) */
		if (op == 0x14)
			rd_uleb(r);
		else
			rd_sleb(r);
		set_rule(m, reg, OTHER, 0);
		break;
	case 0x2e: rd_uleb(r); break;				/* GNU_args_size */
	case 0x2f: reg = rd_uleb(r);			/* GNU_negative_offset_extended */
		set_rule(m, reg, AT_OFFSET, factored(r, -rd_uleb_signed(r), c->data_align));
		break;
	default:
		return false;	/* unknown: its operands cannot be skipped */
	}
	return !r->bad;
}

static bool run(struct machine *m, const uint8_t *p, const uint8_t *end,
		const struct rd *sec)
{
	struct rd r = { sec->start, p, end, sec->vaddr, false };

	while (r.p < r.end)
		if (!step(m, &r))
			return false;
	return true;
}

/* An FDE whose body (after the CIE pointer) is r: its rows. */
static void parse_fde(struct machine *m, struct rd *r, const struct cie *c,
		      const struct rd *sec)
{
	bool ok_begin, ok_len;
	uint64_t begin = rd_encoded(r, c->fde_enc, &ok_begin);
	uint64_t len = rd_encoded(r, c->fde_enc & 0x0f, &ok_len);
	size_t n0 = m->n;

	if (c->has_z) {
		uint64_t alen = rd_uleb(r);

		if (!need(r, alen))
			return;
		r->p += alen;
	}
	if (r->bad || !ok_begin || len == 0)
		return;
	m->cie = c;
	m->depth = 0;
	m->s = (struct state){ .cfa_kind = CFA_OTHER };
	m->loc = begin;
	m->emit = false;
	run(m, c->insns, c->insns_end, sec);
	m->emit = true;
	m->init = m->s;
	m->loc = begin;
	if (!run(m, r->p, r->end, sec)) {
		m->n = n0;	/* an FDE we cannot follow: no rows at all */
		return;
	}
	if (m->loc < begin + len)
		advance(m, begin + len);
	while (m->n > n0 && m->rows[m->n - 1].pc >= begin + len)
		m->n--;		/* rows past the end (a bad advance) */
	push_row(m, begin + len, (struct unwind_row){ .rule = UW_NONE });
}

/* One entry at r (length included); false at the end or on damage. */
static bool parse_entry(struct machine *m, struct rd *r)
{
	uint64_t len = rd_uint(r, 4);
	const uint8_t *body, *end;
	uint64_t id;

	if (len == 0xffffffffu)
		len = rd_uint(r, 8);
	/* every entry holds at least its 4-byte id: a shorter one would have
	 * the id read past the entry's end, and the FDE parsed from there */
	if (len > 0 && len < 4)
		r->bad = true;
	if (r->bad || len == 0 || !need(r, len))
		return false;
	body = r->p;
	end = r->p + len;
	id = rd_uint(r, 4);
	if (id != 0) {	/* an FDE: id is the distance back to its CIE */
		struct cie c;
		struct rd cr = *r;

		if (id > (uint64_t)(body - r->start))
			return false;
		cr.p = body - id;
		if (!need(&cr, 4))
			return false;
		uint64_t clen = rd_uint(&cr, 4);

		if (clen == 0xffffffffu || clen < 4 || clen > (uint64_t)(r->end - cr.p))
			return false;
		cr.end = cr.p + clen;
		if (rd_uint(&cr, 4) == 0 && parse_cie(&cr, &c)) {
			struct rd fr = *r;

			fr.end = end;
			parse_fde(m, &fr, &c, r);
		}
	}
	r->p = end;
	return true;
}

/* by pc; at one pc, a function's start beats another's end, and a later
 * row of one function beats an earlier (ties keep push order: seq) */
struct keyed {
	struct eh_row row;
	size_t seq;
};

static int cmp_keyed(const void *a, const void *b)
{
	const struct keyed *x = a, *y = b;
	bool xend = x->row.r.rule == UW_NONE, yend = y->row.r.rule == UW_NONE;

	if (x->row.pc != y->row.pc)
		return x->row.pc < y->row.pc ? -1 : 1;
	if (xend != yend)
		return xend ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static bool same_rule(const struct unwind_row *a, const struct unwind_row *b)
{
	return a->rule == b->rule && a->cfa_off == b->cfa_off &&
	       a->rbp_off == b->rbp_off;
}

/* Sort, keep the last row at each pc, merge rows equal to the previous. */
static int finish(struct eh_row *rows, size_t *n)
{
	struct keyed *k = malloc((*n ? *n : 1) * sizeof(*k));
	size_t out = 0;

	if (!k)
		return -ENOMEM;
	for (size_t i = 0; i < *n; i++)
		k[i] = (struct keyed){ rows[i], i };
	qsort(k, *n, sizeof(*k), cmp_keyed);
	for (size_t i = 0; i < *n; i++) {
		if (i + 1 < *n && k[i + 1].row.pc == k[i].row.pc)
			continue;
		if (out && same_rule(&rows[out - 1].r, &k[i].row.r))
			continue;
		rows[out++] = k[i].row;
	}
	free(k);
	*n = out;
	return 0;
}

int ehframe_rows(const uint8_t *data, size_t size, uint64_t vaddr,
		 struct eh_row **rows, size_t *n, size_t *bad)
{
	struct rd r = { data, data, data + size, vaddr, false };
	struct machine m = { 0 };
	int rc = 0;

	while (r.p < r.end && !m.oom) {
		const uint8_t *entry = r.p;

		if (!parse_entry(&m, &r)) {
			/* a zero terminator ends the section cleanly */
			if (r.bad) {
				rc = -EINVAL;
				if (bad)
					*bad = (size_t)(entry - data);
			}
			break;
		}
	}
	if (m.oom)
		rc = -ENOMEM;
	else if (finish(m.rows, &m.n) < 0)
		rc = -ENOMEM;
	*rows = m.rows;
	*n = m.n;
	return rc;
}
