/*
 * fmt.c -- DTrace's printf formats: the conversion table, parsing, and
 * the check of the arguments' types (rt/format.c prints).  See fmt.h.
 *
 * The shape follows libdtrace's printf dictionary.  A conversion name
 * ("d", "hd", "llx", "Y") selects a row of conv_table[]; the row says which
 * argument types are acceptable (a check kind, with the prototype text the
 * error message quotes), what C conversion letters print the value, and how
 * the raw value becomes a C argument (a print kind).  Length modifiers in the
 * D format never reach the C library: they only select the row.
 */
#include "d/fmt.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char proto_xint[] = "char, short, int, long, or long long";
static const char proto_csi[] = "char, short, or int";
static const char proto_fp[] = "float, double, or long double";
static const char proto_addr[] = "pointer or integer";
static const char proto_uaddr[] =
	"pointer or integer (with -p/-c) or _usymaddr (without -p/-c)";
static const char proto_cstr[] = "char [] or string (or use stringof)";
static const char proto_wstr[] = "wchar_t []";

/* ORDER: none; looked up by name.  Mirrors libdtrace's dictionary. */
static const struct fmt_conv_info conv_table[] = {
	{ "a", "s", proto_addr, CK_KADDR, PR_ADDR },
	{ "A", "s", proto_uaddr, CK_UADDR, PR_UADDR },
	{ "c", "c", proto_csi, CK_CSI, PR_SINT },
	{ "C", "s", proto_csi, CK_CSI, PR_ECHR },
	{ "d", "d", proto_xint, CK_DINT, PR_DINT },
	{ "e", "e", proto_fp, CK_FP, PR_FP },
	{ "E", "E", proto_fp, CK_FP, PR_FP },
	{ "f", "f", proto_fp, CK_FP, PR_FP },
	{ "g", "g", proto_fp, CK_FP, PR_FP },
	{ "G", "G", proto_fp, CK_FP, PR_FP },
	{ "hd", "d", "short", CK_TYPE, PR_SINT, 2, true },
	{ "hi", "i", "short", CK_TYPE, PR_SINT, 2, true },
	{ "ho", "o", "unsigned short", CK_TYPE, PR_UINT, 2, false },
	{ "hu", "u", "unsigned short", CK_TYPE, PR_UINT, 2, false },
	{ "hx", "x", "short", CK_SIZE, PR_UINT, 2 },
	{ "hX", "X", "short", CK_SIZE, PR_UINT, 2 },
	{ "i", "i", proto_xint, CK_DINT, PR_DINT },
	{ "k", "s", "stack", CK_STACK, PR_STACK },
	{ "lc", "lc", "int", CK_TYPE, PR_SINT, 4, true },
	{ "ld", "d", "long", CK_TYPE, PR_SINT, 8, true },
	{ "li", "i", "long", CK_TYPE, PR_SINT, 8, true },
	{ "lo", "o", "unsigned long", CK_TYPE, PR_UINT, 8, false },
	{ "lu", "u", "unsigned long", CK_TYPE, PR_UINT, 8, false },
	{ "ls", "ls", proto_wstr, CK_WSTR, PR_WSTR },
	{ "lx", "x", "long", CK_SIZE, PR_UINT, 8 },
	{ "lX", "X", "long", CK_SIZE, PR_UINT, 8 },
	{ "lld", "d", "long long", CK_TYPE, PR_SINT, 8, true },
	{ "lli", "i", "long long", CK_TYPE, PR_SINT, 8, true },
	{ "llo", "o", "unsigned long long", CK_TYPE, PR_UINT, 8, false },
	{ "llu", "u", "unsigned long long", CK_TYPE, PR_UINT, 8, false },
	{ "llx", "x", "long long", CK_SIZE, PR_UINT, 8 },
	{ "llX", "X", "long long", CK_SIZE, PR_UINT, 8 },
	{ "Le", "e", "long double", CK_FP, PR_FP },
	{ "LE", "E", "long double", CK_FP, PR_FP },
	{ "Lf", "f", "long double", CK_FP, PR_FP },
	{ "Lg", "g", "long double", CK_FP, PR_FP },
	{ "LG", "G", "long double", CK_FP, PR_FP },
	{ "o", "o", proto_xint, CK_XINT, PR_UINT },
	{ "p", "x", proto_addr, CK_KADDR, PR_UINT },
	{ "s", "s", proto_cstr, CK_STR, PR_CSTR },
	{ "S", "s", proto_cstr, CK_STR, PR_ESTR },
	{ "T", "s", "int64_t", CK_TIME, PR_TIME822 },
	{ "u", "u", proto_xint, CK_XINT, PR_UINT },
	{ "wc", "wc", "int", CK_TYPE, PR_SINT, 4, true },
	{ "ws", "ws", proto_wstr, CK_WSTR, PR_WSTR },
	{ "x", "x", proto_xint, CK_XINT, PR_UINT },
	{ "X", "X", proto_xint, CK_XINT, PR_UINT },
	{ "Y", "s", "int64_t", CK_TIME, PR_TIME },
	{ "%", "%", "void", CK_VOID, PR_PCT },
};

static const struct fmt_conv_info *conv_lookup(const char *name)
{
	for (size_t i = 0; i < sizeof(conv_table) / sizeof(conv_table[0]); i++)
		if (strcmp(conv_table[i].name, name) == 0)
			return &conv_table[i];
	return NULL;
}

/* ---- parsing ---------------------------------------------------------- */

struct parse_state {
	struct diag *d;
	int line, col;
	int convno;		/* 1-based number of the conversion being read */
};

_Noreturn static void parse_fail(struct parse_state *ps, const char *what)
{
	diag_fail(ps->d, ps->line, ps->col, "D_SYNTAX",
		  "format conversion #%d %s", ps->convno, what);
}

/*
 * conversion = "%" { flag | digits | "." | "*" | "?" | "@" } { "h"|"l"|"L"|"w" } letter
 *
 * p points at the '%'; returns a pointer to the conversion letter.
 */
static const char *parse_conv(struct parse_state *ps, const char *p,
			      struct fmt_conv *c)
{
	char name[8], msg[64];
	unsigned namelen = 0;
	int dot = 0, digits = 0;

	for (;;) {
		char ch = *++p;

		if (ch >= '0' && ch <= '9') {
			int n = 0;

			if (!dot && !digits && ch == '0') {
				c->flags = (c->flags | FMT_F_ZPAD) & ~FMT_F_LEFT;
				continue;
			}
			for (; *p >= '0' && *p <= '9'; p++) {
				/* "%222222222222s" overflowed n (UBSan, found
				 * by the fuzzer): refuse what an int cannot hold */
				if (n > (INT_MAX - (*p - '0')) / 10)
					parse_fail(ps, "has a width or precision "
						   "too large");
				n = n * 10 + (*p - '0');
			}
			p--;
			*(dot ? &c->prec : &c->width) = n;
			digits++;
			continue;
		}
		switch (ch) {
		case '#': c->flags |= FMT_F_ALT; continue;
		case '+': c->flags |= FMT_F_SPOS; continue;
		case '\'': c->flags |= FMT_F_GROUP; continue;
		case ' ': c->flags |= FMT_F_SPACE; continue;
		case '@': c->flags |= FMT_F_AGG; continue;
		case '?': c->width = 16; continue;
		case '-':
			c->flags = (c->flags | FMT_F_LEFT) & ~FMT_F_ZPAD;
			continue;
		case '*': {
			unsigned bit = dot ? FMT_F_DYNPREC : FMT_F_DYNWIDTH;

			if (c->flags & bit) {
				snprintf(msg, sizeof(msg), "has more than one "
					 "'*' specified for the output %s",
					 dot ? "precision" : "width");
				parse_fail(ps, msg);
			}
			c->flags |= bit;
			continue;
		}
		case '.':
			if (dot++)
				parse_fail(ps, "has more than one '.' specified");
			digits = 0;
			continue;
		case '$':
			parse_fail(ps, "uses unsupported positional format (%n$)");
		case '\0':
			parse_fail(ps, "name expected before end of format string");
		case 'h': case 'l': case 'L': case 'w':
			if (namelen < sizeof(name) - 2)
				name[namelen++] = ch;
			continue;
		case '%':
			if (p[-1] != '%')
				parse_fail(ps, "cannot be combined with other "
					   "format flags: %%");
			break;
		}
		name[namelen++] = ch;
		name[namelen] = '\0';
		break;
	}
	c->info = conv_lookup(name);
	if (!c->info) {
		snprintf(msg, sizeof(msg), "is undefined: %%%s", name);
		parse_fail(ps, msg);
	}
	return p;
}

int fmt_parse(struct arena *a, const char *fmt, struct fmt **out,
	      struct diag *d, int line, int col)
{
	struct parse_state ps = { d, line, col, 0 };
	struct fmt *f = arena_alloc(a, sizeof(*f));
	const char *p, *q;
	int cap = 1;

	for (p = fmt; *p; p++)
		cap += *p == '%';
	f->src = arena_strdup(a, fmt);
	f->conv = arena_alloc(a, cap * sizeof(*f->conv));
	for (q = f->src; (p = strchr(q, '%')) != NULL; q = *p ? p + 1 : p) {
		struct fmt_conv *c = &f->conv[f->nconv++];

		ps.convno = f->nconv;
		c->prefix = q;
		c->preflen = (size_t)(p - q);
		p = parse_conv(&ps, p, c);
	}
	/* Trailing text; an empty format is one empty piece of text. */
	if (*q || !*f->src) {
		struct fmt_conv *c = &f->conv[f->nconv++];

		c->prefix = q;
		c->preflen = strlen(q);
	}
	*out = f;
	return 0;
}

bool fmt_names_uaddr(const struct fmt *f)
{
	for (int i = 0; f && i < f->nconv; i++)
		if (f->conv[i].info && f->conv[i].info->check == CK_UADDR)
			return true;
	return false;
}

/* ---- compile-time checking -------------------------------------------- */

bool fmt_is_named_id(const struct dtype *t)
{
	return t->kind == T_SYM && (t->sym == DSYM_ZONE || t->sym == DSYM_CGPATH);
}

static bool is_integer(const struct dtype *t)
{
	return t->kind == T_INT || t->kind == T_SYM;
}

static bool type_ok(const struct fmt_conv_info *ci, const struct dtype *t)
{
	switch (ci->check) {
	case CK_KADDR:
	case CK_UADDR:	/* and usym()'s _usymaddr */
		return is_integer(t) || t->kind == T_PTR ||
		       (t->kind == T_STACK && t->user && t->sym);
	case CK_STACK:
		return t->kind == T_STACK;
	case CK_TIME:
		return is_integer(t) && t->size == 8;
	case CK_STR:
		return t->kind == T_STRING || fmt_is_named_id(t);
	case CK_CSI:
		return is_integer(t) && t->size <= 4;
	case CK_XINT:
	case CK_DINT:
		return is_integer(t);
	case CK_SIZE:
		return t->kind == T_INT && t->size == ci->size;
	case CK_TYPE:
		return t->kind == T_INT && t->size == ci->size &&
		       t->is_signed == ci->is_signed;
	case CK_FP:
		return dtype_is_float(t);
	case CK_WSTR:
	case CK_VOID:
		break;
	}
	return false;
}

static const char *type_name(const struct dtype *t)
{
	static const char *const by_kind[] = {
		[T_NONE] = "void", [T_VOID] = "void", [T_INT] = "int",
		[T_STRING] = "string", [T_PTR] = "void *",
		[T_STRUCT] = "struct", [T_ARRAY] = "array",
		[T_STACK] = "stack", [T_SYM] = "_symaddr",
		[T_AGG] = "aggregation",
	};

	if (t->kind == T_AGG)
		return "aggregation";
	return t->name ? t->name : by_kind[t->kind];
}

/* The dynamic "*" and ".*" arguments of c, width first. */
static int check_dynamic(const struct fmt_conv *c, const struct fmt_use *use,
			 const struct dtype *argtypes, int nargs, int j,
			 int convno, struct diag *d, int line, int col)
{
	static const struct { unsigned bit; const char *text; } dyn[] = {
		{ FMT_F_DYNWIDTH, "*" }, { FMT_F_DYNPREC, ".*" },
	};

	for (int k = 0; k < 2; k++) {
		if (!(c->flags & dyn[k].bit))
			continue;
		if (j >= nargs)
			diag_fail(d, line, col, "D_PRINTF_DYN_PROTO",
				  "%s( ) prototype mismatch: conversion #%d "
				  "(%%%s) is missing a corresponding \"%s\" "
				  "argument", use->func, convno,
				  c->info->name, dyn[k].text);
		if (!is_integer(&argtypes[j]))
			diag_fail(d, line, col, "D_PRINTF_DYN_TYPE",
				  "%s( ) argument #%d is incompatible with "
				  "conversion #%d prototype:\n"
				  "\tconversion: %% %s %s\n"
				  "\t prototype: int\n\t  argument: %s",
				  use->func, j + use->argoff + 1, convno,
				  dyn[k].text, c->info->name,
				  type_name(&argtypes[j]));
		j++;
	}
	return j;
}

void fmt_check_use(const struct fmt *f, const struct fmt_use *use,
		   const struct dtype *argtypes, int nargs, struct diag *d,
		   int line, int col)
{
	struct dtype aggtype = { T_INT, 8, !use->agg_count, 0,
				 use->agg_count ? "uint64_t" : "int64_t" };
	int j = 0;

	if (f->src[0] == '\0')
		diag_fail(d, line, col, "D_PRINTF_FMT_EMPTY",
			  "%s( ) format string is empty", use->func);
	for (int i = 0; i < f->nconv; i++) {
		const struct fmt_conv *c = &f->conv[i];
		const struct dtype *vt;
		char vname[64];

		if (!c->info || c->info->check == CK_VOID)
			continue;
		j = check_dynamic(c, use, argtypes, nargs, j, i + 1, d, line,
				  col);
		if (c->flags & FMT_F_AGG) {
			if (!use->printa)
				diag_fail(d, line, col, "D_PRINTF_AGG_CONV",
					  "%%@ conversion requires an "
					  "aggregation and is not for use "
					  "with %s( )", use->func);
			snprintf(vname, sizeof(vname), "aggregating action");
			vt = &aggtype;
		} else if (j >= nargs) {
			diag_fail(d, line, col, "D_PRINTF_ARG_PROTO",
				  "%s( ) prototype mismatch: conversion #%d "
				  "(%%%s) is missing a corresponding value "
				  "argument", use->func, i + 1, c->info->name);
		} else {
			snprintf(vname, sizeof(vname), "argument #%d",
				 j + use->argoff + 1);
			vt = &argtypes[j++];
		}
		if (!type_ok(c->info, vt))
			diag_fail(d, line, col, "D_PRINTF_ARG_TYPE",
				  "%s( ) %s is incompatible with conversion "
				  "#%d prototype:\n\tconversion: %%%s\n"
				  "\t prototype: %s\n\t  argument: %s",
				  use->func, vname, i + 1, c->info->name,
				  c->info->proto, type_name(vt));
	}
	if (use->exactlen && j < nargs)
		diag_fail(d, line, col, "D_PRINTF_ARG_EXTRA",
			  "%s( ) prototype mismatch: only %d arguments "
			  "required by this format string", use->func, j);
}

void fmt_check(const struct fmt *f, const struct dtype *argtypes, int nargs,
	       struct diag *d, int line, int col)
{
	static const struct fmt_use printf_use = { "printf", 1, true };

	fmt_check_use(f, &printf_use, argtypes, nargs, d, line, col);
}
