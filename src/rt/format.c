/*
 * format.c -- DTrace's printf: print.
 *
 * Formats are parsed and checked at compile time by d/fmt.c, whose
 * conversion table says how each one prints: the C
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

#include "rt/printtype.h"

#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <wchar.h>

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

	if (v->type.sym == DSYM_ZONE || v->type.sym == DSYM_CGPATH) {
		if (syms && syms->zname)
			syms->zname(addr, v->type.sym == DSYM_CGPATH, buf, len);
		else
			snprintf(buf, len, "%" PRIu64, addr);
		return;
	}
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

static int print_cstr(FILE *out, const char *cprefix, const struct fmt_val *v,
		      const struct fmt_sym_ops *syms)
{
	size_t n;
	char *s;
	int r;

	if (fmt_is_named_id(&v->type)) {	/* zonename, cgroup_path() */
		char buf[PATH_MAX];

		fmt_symbol(v, syms, buf, sizeof(buf));
		return print_str(out, cprefix, buf);
	}
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
		return print_cstr(out, cprefix, v, syms);
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
	else if (fmt_is_named_id(&v->type))	/* as a string traces */
		fprintf(out, "  %-33s", buf);
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
	uint32_t bound = dtype_string_bound(strsize);
	uint32_t n = v->type.size < bound ? v->type.size : bound;

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
