/*
 * format.c -- DTrace's printf: parse, check, print.
 *
 * The shape follows libdtrace's printf dictionary.  A conversion name
 * ("d", "hd", "llx", "Y") selects a row of conv_table[]; the row says which
 * argument types are acceptable (a check kind, with the prototype text the
 * error message quotes), what C conversion letters print the value, and how
 * the raw value becomes a C argument (a print kind).  Length modifiers in the
 * D format never reach the C library: they only select the row.  The C
 * format is rebuilt for every value from the flags, the width and precision
 * (fixed or dynamic) and the size of the value itself -- an 8-byte integer
 * gets "ll", anything narrower is printed as a 32-bit int -- which is how
 * DTrace gets "automatic size extension" right for every D integer type.
 *
 * Two DTrace quirks are kept on purpose because scripts' output depends on
 * them: a precision of 0 is dropped ("%.0s" prints the whole string), and
 * %p prints bare hex without "0x".
 *
 * Invariant: every format string handed to the C library is built here
 * from a fixed alphabet (flags, digits, length, one letter); user text is
 * only ever printed through "%s" or fwrite.
 */
#include "rt/format.h"

#include "front/ctype.h"
#include "rt/printtype.h"

#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <wchar.h>

enum check_kind {
	CK_KADDR,	/* pointer, integer or symbol address */
	CK_UADDR,	/* the same, for user addresses */
	CK_STACK,	/* stack() / ustack() */
	CK_TIME,	/* 64-bit integer */
	CK_STR,		/* string */
	CK_WSTR,	/* wchar_t []: D has none, always rejected */
	CK_CSI,		/* integer of at most 4 bytes */
	CK_FP,		/* float, double or long double */
	CK_XINT,	/* any integer */
	CK_DINT,	/* any integer; unsigned ones print as %u */
	CK_SIZE,	/* integer of exactly `size` bytes, either sign */
	CK_TYPE,	/* integer of exactly `size` bytes and `sign` */
	CK_VOID,	/* %%: takes no argument */
};

enum print_kind {
	PR_SINT, PR_UINT, PR_DINT, PR_FP, PR_ADDR, PR_UADDR, PR_STACK,
	PR_TIME, PR_TIME822, PR_CSTR, PR_WSTR, PR_ESTR, PR_ECHR, PR_PCT,
};

struct fmt_conv_info {
	const char *name;	/* as written after the flags: "hd" */
	const char *letters;	/* C conversion: "d", "lc", "s" */
	const char *proto;	/* prototype text for messages */
	enum check_kind check;
	enum print_kind print;
	unsigned char size;	/* CK_SIZE / CK_TYPE: bytes */
	bool is_signed;		/* CK_TYPE */
};

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

/* ---- compile-time checking -------------------------------------------- */

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
		return t->kind == T_STRING;
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

/* ---- printing --------------------------------------------------------- */

/*
 * Print through a C format built in this file (see the invariant above);
 * the non-literal format is the point, so the warning is off here only.
 */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
static int cprintf(FILE *out, const char *cfmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, cfmt);
	n = vfprintf(out, cfmt, ap);
	va_end(ap);
	return n;
}
#pragma GCC diagnostic pop

static uint32_t value_size(const struct fmt_val *v)
{
	if (v->type.kind == T_PTR || v->type.kind == T_SYM)
		return 8;
	return v->type.size;
}

static int64_t sext(uint64_t u, uint32_t size)
{
	switch (size) {
	case 1: return (int8_t)u;
	case 2: return (int16_t)u;
	case 4: return (int32_t)u;
	}
	return (int64_t)u;
}

static uint64_t zext(uint64_t u, uint32_t size)
{
	return size >= 8 ? u : u & ((UINT64_C(1) << (size * 8)) - 1);
}

static bool is_scalar(const struct fmt_val *v)
{
	return v->type.kind == T_INT || v->type.kind == T_PTR ||
	       v->type.kind == T_SYM;
}

/* A plain %d, %i or %u (no flag, width or precision) in decimal, as
 * printf would: the common conversion of records printed by the
 * million, without building a format for vfprintf to parse. */
static int print_decimal(FILE *out, uint64_t u, bool negative)
{
	char buf[24], *p = buf + sizeof(buf);

	do
		*--p = (char)('0' + u % 10);
	while ((u /= 10) != 0);
	if (negative)
		*--p = '-';
	return (int)fwrite(p, 1, (size_t)(buf + sizeof(buf) - p), out);
}

/* An integer through "%<prefix>[ll]<letters>"; narrow values as 32 bits. */
static int print_int(FILE *out, const char *cprefix, const char *letters,
		     const struct fmt_val *v, bool sign)
{
	uint32_t size = value_size(v);
	char cfmt[64];

	if (!is_scalar(v) || (size != 1 && size != 2 && size != 4 && size != 8))
		return -1;
	if (cprefix[1] == '\0' && (letters[0] == 'd' || letters[0] == 'i' ||
				    letters[0] == 'u') && letters[1] == '\0') {
		int64_t s = size == 8 ? (int64_t)v->u : sext(v->u, size);
		uint64_t u = size == 8 ? v->u : sign ? (uint64_t)s
						      : zext(v->u, size);

		return sign && s < 0 ? print_decimal(out, -(uint64_t)s, true)
				     : print_decimal(out, u, false);
	}
	snprintf(cfmt, sizeof(cfmt), "%s%s%s", cprefix, size == 8 ? "ll" : "",
		 letters);
	if (size == 8)
		return sign ? cprintf(out, cfmt, (long long)v->u)
			    : cprintf(out, cfmt, (unsigned long long)v->u);
	if (strcmp(letters, "lc") == 0 || strcmp(letters, "wc") == 0) {
		snprintf(cfmt, sizeof(cfmt), "%slc", cprefix);
		return cprintf(out, cfmt, (wint_t)(int32_t)sext(v->u, size));
	}
	return sign ? cprintf(out, cfmt, (int32_t)sext(v->u, size))
		    : cprintf(out, cfmt, (uint32_t)zext(v->u, size));
}

static int print_str(FILE *out, const char *cprefix, const char *s)
{
	char cfmt[64];

	snprintf(cfmt, sizeof(cfmt), "%ss", cprefix);
	return cprintf(out, cfmt, s);
}

void fmt_addr2str(const struct fmt_sym_ops *syms, uint64_t addr,
		  bool with_offset, char *buf, size_t len)
{
	const char *mod = NULL, *sym = NULL;
	uint64_t symaddr = 0;

	if (!syms || !syms->lookup ||
	    !syms->lookup(syms->ctx, addr, &mod, &sym, &symaddr))
		snprintf(buf, len, "0x%llx", (unsigned long long)addr);
	else if (!sym)
		snprintf(buf, len, "%s`0x%llx", mod, (unsigned long long)addr);
	else if (with_offset && addr != symaddr)
		snprintf(buf, len, "%s`%s+0x%llx", mod, sym,
			 (unsigned long long)(addr - symaddr));
	else
		snprintf(buf, len, "%s`%s", mod, sym);
}

void fmt_addr2mod(const struct fmt_sym_ops *syms, uint64_t addr,
		     char *buf, size_t len)
{
	const char *mod = NULL, *sym = NULL;
	uint64_t symaddr = 0;

	if (syms && syms->lookup &&
	    syms->lookup(syms->ctx, addr, &mod, &sym, &symaddr))
		snprintf(buf, len, "%s", mod);
	else
		snprintf(buf, len, "0x%llx", (unsigned long long)addr);
}

/* A user stack's frames are looked up in its process (word 0). */
struct ustack_ctx {
	const struct fmt_sym_ops *syms;
	uint32_t pid;
};

static bool ustack_lookup(void *ctx, uint64_t addr, const char **mod,
			  const char **sym, uint64_t *symaddr)
{
	struct ustack_ctx *u = ctx;

	return u->syms && u->syms->ulookup &&
	       u->syms->ulookup(u->syms->ctx, u->pid, addr, mod, sym, symaddr);
}

void fmt_symbol(const struct fmt_val *v, const struct fmt_sym_ops *syms,
		char *buf, size_t len)
{
	struct ustack_ctx u = { syms, 0 };
	struct fmt_sym_ops usyms = { .lookup = ustack_lookup, .ctx = &u };
	uint64_t addr = v->u;

	if (v->type.kind == T_STACK) {	/* user: { pid, address } */
		u.pid = v->pcs ? (uint32_t)v->pcs[0] : 0;
		addr = v->pcs ? v->pcs[1] : 0;
		syms = &usyms;
	}
	if (v->type.sym == DSYM_MOD)
		fmt_addr2mod(syms, addr, buf, len);
	else
		fmt_addr2str(syms, addr, v->type.sym == DSYM_ADDR, buf, len);
}

/*
 * %A: a user address as "module`function+0xoff", in the process a
 * usym()-family value carries, else in the -p/-c target (as DTrace's
 * pfprint_uaddr); with neither, or no symbol, in hex.  A umod() value
 * prints its module.
 */
void fmt_uaddr2str(const struct fmt_val *v, const struct fmt_sym_ops *syms,
		   char *buf, size_t len)
{
	struct ustack_ctx u = { syms, syms ? syms->target_pid : 0 };
	struct fmt_sym_ops usyms = { .lookup = ustack_lookup, .ctx = &u };
	uint64_t addr = zext(v->u, value_size(v));

	if (v->type.sym == DSYM_MOD) {	/* umod(): pfprint_umod's module */
		fmt_symbol(v, syms, buf, len);
		return;
	}
	if (v->type.kind == T_STACK) {
		u.pid = v->pcs ? (uint32_t)v->pcs[0] : 0;
		addr = v->pcs ? v->pcs[1] : 0;
	}
	fmt_addr2str(u.pid ? &usyms : NULL, addr, true, buf, len);
}

bool fmt_stack_frame(const struct fmt_val *v, const struct fmt_sym_ops *syms,
		     uint32_t i, bool bare, char *buf, size_t len)
{
	uint32_t first = v->type.user ? 1 : 0;	/* a user stack: pid first */
	struct ustack_ctx uc = { syms, 0 };
	struct fmt_sym_ops uops = { .lookup = ustack_lookup, .ctx = &uc };
	const char *mod = NULL, *sym = NULL;
	uint64_t addr, symaddr = 0;

	if (!v->pcs || i + first >= v->type.size / 8 || !v->pcs[i + first])
		return false;
	addr = v->pcs[i + first];
	if (v->type.user) {
		uc.pid = (uint32_t)v->pcs[0];
		syms = &uops;
	}
	if (!bare)
		fmt_addr2str(syms, addr, true, buf, len);
	else if (!syms || !syms->lookup ||
		 !syms->lookup(syms->ctx, addr, &mod, &sym, &symaddr))
		snprintf(buf, len, "0x%llx", (unsigned long long)addr);
	else if (!sym)
		snprintf(buf, len, "[%s]", mod);
	else
		snprintf(buf, len, "%s", sym);
	return true;
}

void fmt_stack(FILE *out, const struct fmt_val *v, const char *cfmt,
	       const struct fmt_sym_ops *syms, int indent)
{
	char buf[512];

	fputc('\n', out);
	for (uint32_t i = 0; fmt_stack_frame(v, syms, i, false, buf, sizeof(buf));
	     i++) {
		fprintf(out, "%*s", indent, "");
		if (cfmt)
			cprintf(out, cfmt, buf);
		else
			fputs(buf, out);
		fputc('\n', out);
	}
}

/* %Y: "2026 Nov 29 08:15:23", ctime's fields with the year first. */
static int print_time(FILE *out, const char *cprefix, uint64_t ns,
		      bool rfc822)
{
	time_t sec = (time_t)(ns / 1000000000);
	struct tm tm;
	char buf[64];

	localtime_r(&sec, &tm);
	strftime(buf, sizeof(buf), rfc822 ? "%a, %d %b %G %T %Z" :
		 "%Y %b %e %T", &tm);
	return print_str(out, cprefix, buf);
}

/*
 * %S: C-style escapes for the usual controls, quote and backslash, octal
 * for any other byte outside '!'..'~' except space; stops at the NUL
 * (printed as "\0") or after n bytes.
 */
static char *escape(const char *s, size_t n)
{
	static const char from[] = "\a\b\f\n\r\t\v\"\\";
	static const char to[] = "abfnrtv\"\\";
	char *out = malloc(n * 4 + 1), *q = out;

	if (!out)
		abort();
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		const char *e = c ? strchr(from, c) : NULL;

		if (c == '\0') {
			*q++ = '\\';
			*q++ = '0';
			break;
		} else if (e) {
			*q++ = '\\';
			*q++ = to[e - from];
		} else if (c != ' ' && (c < '!' || c > '~')) {
			*q++ = '\\';
			*q++ = (char)('0' + ((c >> 6) & 3));
			*q++ = (char)('0' + ((c >> 3) & 7));
			*q++ = (char)('0' + (c & 7));
		} else {
			*q++ = (char)c;
		}
	}
	*q = '\0';
	return out;
}

static int print_escaped(FILE *out, const char *cprefix, const char *s,
			 size_t n)
{
	char *e = escape(s, n);
	int r = print_str(out, cprefix, e);

	free(e);
	return r;
}

static int print_cstr(FILE *out, const char *cprefix, const struct fmt_val *v)
{
	size_t n;
	char *s;
	int r;

	if (v->type.kind != T_STRING || !v->s)
		return -1;
	n = v->type.size ? strnlen(v->s, v->type.size) : strlen(v->s);
	s = strndup(v->s, n);
	if (!s)
		abort();
	r = print_str(out, cprefix, s);
	free(s);
	return r;
}

static int print_estr(FILE *out, const char *cprefix, const struct fmt_val *v)
{
	if (v->type.kind != T_STRING || !v->s)
		return -1;
	/* the string ends at its NUL, as %s's does: the terminator and the
	 * padding after it are not data to escape */
	return print_escaped(out, cprefix, v->s,
			     v->type.size ? strnlen(v->s, v->type.size)
					  : strlen(v->s));
}

/* A float, double or long double through "%<prefix>[L]<letter>", chosen
 * by the size of the traced bytes, as libdtrace's pfprint_fp does. */
static int print_fp(FILE *out, const char *cprefix, const char *letters,
		    const struct fmt_val *v)
{
	char cfmt[64];
	float f;
	double d;
	long double ld;

	if (v->type.kind != T_STRUCT || !v->s)
		return -1;
	switch (v->type.size) {
	case sizeof(float):
		memcpy(&f, v->s, sizeof(f));
		d = f;
		break;
	case sizeof(double):
		memcpy(&d, v->s, sizeof(d));
		break;
	case sizeof(long double):
		memcpy(&ld, v->s, sizeof(ld));
		snprintf(cfmt, sizeof(cfmt), "%sL%s", cprefix, letters);
		return cprintf(out, cfmt, ld);
	default:
		return -1;
	}
	snprintf(cfmt, sizeof(cfmt), "%s%s", cprefix, letters);
	return cprintf(out, cfmt, d);
}

static int print_conv(FILE *out, const struct fmt_conv *c, const char *cprefix,
		      const struct fmt_val *v, const struct fmt_sym_ops *syms,
		      int stackindent)
{
	const struct fmt_conv_info *ci = c->info;
	char buf[512], cfmt[64];

	switch (ci->print) {
	case PR_SINT:
		return print_int(out, cprefix, ci->letters, v, true);
	case PR_UINT:
		return print_int(out, cprefix, ci->letters, v, false);
	case PR_DINT: {
		bool sign = v->type.kind == T_INT && v->type.is_signed;

		return print_int(out, cprefix, sign ? ci->letters : "u", v,
				 sign);
	}
	case PR_ADDR:
		if (!is_scalar(v))
			return -1;
		if (v->type.sym == DSYM_MOD)	/* mod(): its module, as
						 * DTrace's pfprint_mod */
			fmt_symbol(v, syms, buf, sizeof(buf));
		else
			fmt_addr2str(syms, zext(v->u, value_size(v)), true, buf,
				     sizeof(buf));
		return print_str(out, cprefix, buf);
	case PR_UADDR:
		if (!is_scalar(v) && !(v->type.kind == T_STACK && v->type.sym))
			return -1;
		fmt_uaddr2str(v, syms, buf, sizeof(buf));
		return print_str(out, cprefix, buf);
	case PR_STACK:
		if (v->type.kind != T_STACK)
			return -1;
		snprintf(cfmt, sizeof(cfmt), "%ss", cprefix);
		fmt_stack(out, v, cfmt, syms, stackindent);
		return 0;
	case PR_TIME:
	case PR_TIME822:
		if (!is_scalar(v))
			return -1;
		return print_time(out, cprefix, v->u, ci->print == PR_TIME822);
	case PR_CSTR:
		return print_cstr(out, cprefix, v);
	case PR_ESTR:
		return print_estr(out, cprefix, v);
	case PR_ECHR:
		if (!is_scalar(v) || value_size(v) > 4) {
			return -1;
		} else {
			char ch = (char)v->u;

			return print_escaped(out, cprefix, &ch, 1);
		}
	case PR_PCT:
		return fputc('%', out) == EOF ? -1 : 1;
	case PR_FP:
		return print_fp(out, cprefix, ci->letters, v);
	case PR_WSTR:
		break;
	}
	return -1;
}

/*
 * The C format prefix for c: flags, then the width (its absolute value; a
 * negative dynamic width means left-justify), then a positive precision.
 */
static void build_prefix(char *buf, size_t len, const struct fmt_conv *c,
			 int width, int prec)
{
	char *f = buf;

	*f++ = '%';
	if (c->flags & FMT_F_ALT)
		*f++ = '#';
	if (c->flags & FMT_F_ZPAD)
		*f++ = '0';
	if (width < 0 || (c->flags & FMT_F_LEFT))
		*f++ = '-';
	if (c->flags & FMT_F_SPOS)
		*f++ = '+';
	if (c->flags & FMT_F_GROUP)
		*f++ = '\'';
	if (c->flags & FMT_F_SPACE)
		*f++ = ' ';
	if (c->info->print == PR_STACK && (c->flags & FMT_F_LEFT))
		width = 0;
	*f = '\0';
	if (width != 0)
		f += snprintf(f, len - (size_t)(f - buf), "%d", abs(width));
	if (prec > 0)
		snprintf(f, len - (size_t)(f - buf), ".%d", prec);
}

/*
 * A stack conversion borrows its width as the frame indent when it is
 * left-justified ("%-20k"), and indents nothing otherwise.
 */
static int stack_indent(const struct fmt_conv *c, int width, int dynwidth)
{
	if (dynwidth < 0)
		return -dynwidth;
	if (c->flags & FMT_F_LEFT)
		return dynwidth ? dynwidth : width;
	return 0;
}

int fmt_print_value(FILE *out, const struct fmt_conv *c, const char *cprefix,
		    const struct fmt_val *v, const struct fmt_sym_ops *syms)
{
	return print_conv(out, c, cprefix, v, syms,
			  stack_indent(c, c->width, 0));
}

bool fmt_conv_is_signed(const struct fmt_conv *c, bool value_signed)
{
	return c->info && (c->info->print == PR_SINT ||
			   (c->info->print == PR_DINT && value_signed));
}

static int dyn_int(const struct fmt_val *v)
{
	return (int)sext(v->u, value_size(v));
}

int fmt_print_hooked(FILE *out, const struct fmt *f,
		     const struct fmt_val *vals, int nvals,
		     const struct fmt_sym_ops *syms,
		     const struct fmt_agg_hook *agg)
{
	int j = 0, aggidx = 0;

	for (int i = 0; i < f->nconv; i++) {
		const struct fmt_conv *c = &f->conv[i];
		int width = c->width, prec = c->prec, dynwidth = 0;
		char cprefix[48];

		fwrite(c->prefix, 1, c->preflen, out);
		if (!c->info)
			continue;
		if (c->info->print == PR_PCT) {
			fputc('%', out);
			continue;
		}
		if (c->flags & FMT_F_DYNWIDTH) {
			if (j >= nvals || !is_scalar(&vals[j]))
				return -1;
			width = dynwidth = dyn_int(&vals[j++]);
		}
		if (c->flags & FMT_F_DYNPREC) {
			if (j >= nvals || !is_scalar(&vals[j]))
				return -1;
			prec = dyn_int(&vals[j++]);
		}
		build_prefix(cprefix, sizeof(cprefix), c, width, prec);
		if (c->flags & FMT_F_AGG) {
			if (!agg || agg->print_agg(agg->ctx, out, aggidx++, c,
						   cprefix) < 0)
				return -1;
			continue;
		}
		if (j >= nvals)
			return -1;
		if (print_conv(out, c, cprefix, &vals[j++], syms,
			       stack_indent(c, width, dynwidth)) < 0)
			return -1;
	}
	return j;
}

int fmt_print(FILE *out, const struct fmt *f, const struct fmt_val *vals,
	      int nvals, const struct fmt_sym_ops *syms)
{
	return fmt_print_hooked(out, f, vals, nvals, syms, NULL);
}

/* ---- trace() and the probe heading ------------------------------------ */

/* ORDER: by size 1, 2, 4, 8. */
static const struct {
	uint32_t size;
	int swidth, uwidth;	/* non-quiet field widths */
} trace_width[] = {
	{ 1, 3, 3 }, { 2, 5, 5 }, { 4, 10, 10 }, { 8, 19, 20 },
};

static void trace_sym(FILE *out, const struct fmt_val *v, bool quiet,
		      const struct fmt_sym_ops *syms)
{
	char buf[512];

	fmt_symbol(v, syms, buf, sizeof(buf));
	if (quiet)
		fputs(buf, out);
	else
		fprintf(out, "  %-50s", buf);
}

/*
 * trace() under rawbytes: the value's bytes as a hex dump, whatever its
 * type, as libdtrace's dt_print_trace does -- a string's whole buffer
 * (strsize and its NUL, as DTrace records it; the record here may be
 * padded past that), an integer's bytes in memory order.  Stacks and
 * symbols are actions of their own in DTrace and print as always.
 */
bool fmt_trace_raw(FILE *out, const struct fmt_val *v, uint32_t strsize)
{
	uint32_t n = v->type.size < strsize + 1 ? v->type.size : strsize + 1;

	if (v->type.kind == T_STACK || v->type.sym != DSYM_NONE)
		return false;
	if (v->type.kind == T_STRING)
		printtype_hexdump(out, (const unsigned char *)(v->s ? v->s : ""),
				  v->s ? n : 1);
	else
		printtype_hexdump(out, (const unsigned char *)&v->u, value_size(v));
	return true;
}

void fmt_trace(FILE *out, const struct fmt_val *v, bool quiet,
	       const struct fmt_sym_ops *syms)
{
	if (v->type.kind == T_STRING) {
		const char *s = v->s ? v->s : "";
		int n = (int)(v->type.size ? strnlen(s, v->type.size)
					   : strlen(s));

		if (quiet)
			fprintf(out, "%.*s", n, s);
		else
			fprintf(out, "  %-33.*s", n, s);
		return;
	}
	if (v->type.sym != DSYM_NONE) {
		trace_sym(out, v, quiet, syms);
		return;
	}
	if (v->type.kind == T_STACK) {
		fmt_stack(out, v, NULL, syms, syms && syms->stackindent >= 0 ?
			  syms->stackindent : 14);
		return;
	}
	for (size_t i = 0; i < sizeof(trace_width) / sizeof(trace_width[0]); i++) {
		uint32_t size = trace_width[i].size;
		bool sign = v->type.kind == T_INT && v->type.is_signed;

		if (value_size(v) != size)
			continue;
		if (sign && quiet)
			fprintf(out, "%lld", (long long)sext(v->u, size));
		else if (sign)
			fprintf(out, " %*lld", trace_width[i].swidth,
				(long long)sext(v->u, size));
		else if (quiet)
			fprintf(out, "%llu", (unsigned long long)zext(v->u, size));
		else
			fprintf(out, " %*llu", trace_width[i].uwidth,
				(unsigned long long)zext(v->u, size));
		return;
	}
}

void fmt_probe_header(FILE *out, bool testing, bool flow)
{
	if (flow && testing)
		fprintf(out, "%-41s\n", "FUNCTION");
	else if (flow)
		fprintf(out, "%3s %-41s\n", "CPU", "FUNCTION");
	else if (testing)
		fprintf(out, "%32s\n", "FUNCTION:NAME");
	else
		fprintf(out, "%3s %6s %32s\n", "CPU", "ID", "FUNCTION:NAME");
}

void fmt_probe_heading(FILE *out, bool testing, int cpu, uint32_t probe_id,
		       const char *func, const char *name)
{
	size_t len = strlen(func) + strlen(name) + 2;
	char *fn = malloc(len);

	if (!fn)
		abort();
	snprintf(fn, len, "%s:%s", func, name);
	if (testing)
		fprintf(out, "%32s ", fn);
	else
		fprintf(out, "%3d %6u %32s ", cpu, probe_id, fn);
	free(fn);
}

void fmt_flow_heading(FILE *out, bool testing, int cpu, int indent,
		      const char *prefix, const char *func, const char *name)
{
	size_t len = (size_t)indent + strlen(prefix) + strlen(func) +
		     (name ? strlen(name) + 1 : 0) + 1;
	char *fn = malloc(len);

	if (!fn)
		abort();
	snprintf(fn, len, "%*s%s%s%s%s", indent, "", prefix, func,
		 name ? ":" : "", name ? name : "");
	if (testing)
		fprintf(out, "%-41s ", fn);
	else
		fprintf(out, "%3d %-41s ", cpu, fn);
	free(fn);
}
