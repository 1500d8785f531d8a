/*
 * test_format.c -- the printf engine against the peer suite's expected
 * output (printf/, trace/, aggs/tst.count_notquiet) and its error texts.
 */
#include "test.h"

#include <setjmp.h>
#include <stdlib.h>
#include <time.h>

#include "rt/format.h"

static struct fmt_val ival(uint64_t u, uint32_t size, bool is_signed)
{
	struct fmt_val v = { .type = { T_INT, size, is_signed, 0, NULL } };

	v.u = u;
	return v;
}

static struct fmt_val sval(const char *s)
{
	struct fmt_val v = { .type = { T_STRING, 256, false, 0, "string" } };

	v.s = s;
	return v;
}

static struct fmt *parse(struct arena *a, const char *fmt)
{
	struct diag d = { 0 };
	jmp_buf env;
	struct fmt *f = NULL;

	d.env = &env;
	if (setjmp(env)) {
		fprintf(stderr, "unexpected error: %s\n", d.msg);
		return NULL;
	}
	fmt_parse(a, fmt, &f, &d, 1, 1);
	return f;
}

/* Print vals through fmt into a malloc'd string. */
static char *pf(const char *fmt, const struct fmt_val *vals, int n)
{
	struct arena a = { 0 };
	struct fmt *f = parse(&a, fmt);
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);

	if (f)
		fmt_print(out, f, vals, n, NULL);
	fclose(out);
	arena_free(&a);
	return buf;
}

#define CHECK_PF(fmt, want, ...)                                          \
	do {                                                              \
		const struct fmt_val v_[] = { __VA_ARGS__ };              \
		char *got_ = pf(fmt, v_, (int)(sizeof(v_) / sizeof(v_[0]))); \
		CHECK_STR(got_, want);                                      \
		free(got_);                                                 \
	} while (0)

TEST(format_basics)
{
	/* printf/tst.basics.r (without %a, which needs kernel symbols) */
	CHECK_PF("%%c = %c\n", "%c = a\n", ival(97, 4, true));
	CHECK_PF("%%d = %d\n", "%d = 97\n", ival(97, 4, true));
	CHECK_PF("%%hd = %hd\n", "%hd = 97\n", ival(97, 2, true));
	CHECK_PF("%%ho = %ho\n", "%ho = 141\n", ival(97, 2, false));
	CHECK_PF("%%hX = %hX\n", "%hX = 61\n", ival(97, 2, false));
	CHECK_PF("%%lc = %lc\n", "%lc = a\n", ival(97, 4, true));
	CHECK_PF("%%lo = %lo\n", "%lo = 141\n", ival(97, 8, false));
	CHECK_PF("%%p = %p\n", "%p = 61\n", ival(97, 8, false));
	CHECK_PF("%%s = %s\n", "%s = hello\n", sval("hello"));
	CHECK_PF("%%X = %X\n", "%X = 61\n", ival(97, 4, false));
}

TEST(format_flags_and_widths)
{
	/* printf/tst.flags.r ("{ptr}" there is the runner's mask of 0x123) */
	CHECK_PF("# %#8x\n", "#    0x123\n", ival(0x123, 4, true));
	CHECK_PF("0 %08x\n", "0 00000123\n", ival(0x123, 4, true));
	CHECK_PF("- %-8x\n", "- 123     \n", ival(0x123, 4, true));
	CHECK_PF("+ %+8d\n", "+     +123\n", ival(123, 4, true));
	CHECK_PF("  % 8d\n", "       123\n", ival(123, 4, true));
	/* printf/tst.widths.r, tst.widths1.r */
	CHECK_PF("%0d|%3d|%?d\n", "1|  1|               0\n", ival(1, 4, true),
		 ival(1, 4, true), ival(0, 4, true));
	CHECK_PF("%*d\n", "    1\n", ival(5, 4, true), ival(1, 4, true));
	CHECK_PF("%*d|\n", "1    |\n", ival(-5, 4, true), ival(1, 4, true));
	/* printf/tst.wp.r: a zero precision is no precision */
	CHECK_PF("%0.0s\n", "hello\n", sval("hello"));
	CHECK_PF("%2.2s\n", "he\n", sval("hello"));
	CHECK_PF("%7.7s\n", "  hello\n", sval("hello"));
	CHECK_PF("%*.*s\n", "hello\n", ival(0, 4, true), ival(0, 4, true),
		 sval("hello"));
	CHECK_PF("%*.*s\n", "  hel\n", ival(5, 4, true), ival(3, 4, true),
		 sval("hello"));
}

TEST(format_integer_widths)
{
	/* Narrow values print as 32-bit C ints, 8-byte ones as long long. */
	CHECK_PF("%d", "-17", ival((uint64_t)-17, 1, true));
	CHECK_PF("%x", "ef", ival(0xef, 1, false));
	CHECK_PF("%x", "ef", ival((uint64_t)-17, 1, true));
	CHECK_PF("%x", "90abcdef", ival(0x90abcdef, 4, false));
	CHECK_PF("%o", "110642547422052746757",
		 ival(0x1234567890abcdefULL, 8, false));
	CHECK_PF("%d", "2427178479", ival(0x90abcdef, 4, false));
	CHECK_PF("%u", "53114233149441", ival(53114233149441ULL, 8, false));
	CHECK_PF("%d", "-1867788817", ival((uint64_t)(int64_t)(int32_t)0x90abcdef,
					   4, true));
	CHECK_PF("100%%\n", "100%\n", ival(0, 4, true));
}

TEST(format_strings_and_escapes)
{
	/* %S escapes the string up to its NUL, not the NUL itself */
	CHECK_PF("[%S]", "[a\\tb\\001\\\"]", sval("a\tb\001\""));
	CHECK_PF("[%-6s]", "[ab    ]", sval("ab"));
	CHECK_PF("%C%C", "a\\n", ival('a', 4, true), ival('\n', 4, true));
	CHECK_PF("hello world from BEGIN", "hello world from BEGIN",
		 ival(0, 4, true));
}

static bool fake_lookup(void *ctx, uint64_t addr, const char **mod,
			const char **sym, uint64_t *symaddr)
{
	if (addr < 0x1000 || addr >= 0x2000)
		return false;
	*mod = "vmlinux";
	*sym = addr < 0x1800 ? "max_pfn" : NULL;
	*symaddr = 0x1000;
	return true;
}

TEST(format_symbols)
{
	struct fmt_sym_ops ops = { fake_lookup, NULL, -1 };
	struct arena a = { 0 };
	struct fmt *f = parse(&a, "symbol = %a|%a|%a");
	const struct fmt_val v[] = {
		ival(0x1000, 8, false), ival(0x1010, 8, false),
		ival(0x1900, 8, false),
	};
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);

	fmt_print(out, f, v, 3, &ops);
	fclose(out);
	/* printf/tst.sym.r for the first */
	CHECK_STR(buf, "symbol = vmlinux`max_pfn|vmlinux`max_pfn+0x10|"
		       "vmlinux`0x1900");
	free(buf);
	arena_free(&a);
	CHECK_PF("%a", "0x10", ival(0x10, 8, false));
}

TEST(format_time)
{
	char *g;

	setenv("TZ", "UTC", 1);
	tzset();
	g = pf("%Y", (const struct fmt_val[]){
		ival(1764404123ULL * 1000000000ULL, 8, false) }, 1);
	CHECK_STR(g, "2025 Nov 29 08:15:23");
	free(g);
	g = pf("%Y", (const struct fmt_val[]){ ival(0, 8, false) }, 1);
	CHECK_STR(g, "1970 Jan  1 00:00:00");
	free(g);
}

/* Run a compile-time step and return the diagnostic "[TAG] msg". */
static char *diag_of(const char *fmt, const struct fmt_use *use,
		     const struct dtype *types, int n)
{
	struct arena a = { 0 };
	struct diag d = { 0 };
	jmp_buf env;
	struct fmt *f;
	char *r;

	d.env = &env;
	if (setjmp(env)) {
		r = malloc(strlen(d.msg) + 64);
		sprintf(r, "[%s] %s", d.tag, d.msg);
		arena_free(&a);
		return r;
	}
	fmt_parse(&a, fmt, &f, &d, 18, 1);
	fmt_check_use(f, use, types, n, &d, 18, 1);
	arena_free(&a);
	return strdup("ok");
}

static const struct fmt_use printf_use = { "printf", 1, true, false, false };
static const struct dtype t_int = { T_INT, 4, true, 0, "int" };
static const struct dtype t_str = { T_STRING, 6, false, 0, "string" };

#define CHECK_DIAG(fmt, want, ...)                                        \
	do {                                                              \
		const struct dtype t_[] = { __VA_ARGS__ };                \
		char *got_ = diag_of(fmt, &printf_use, t_,                  \
				   (int)(sizeof(t_) / sizeof(t_[0])) - 1); \
		CHECK_STR(got_, want);                                      \
		free(got_);                                                 \
	} while (0)

TEST(format_parse_errors)
{
	/* printf/err.D_SYNTAX.badconv{1,2,3}.r */
	CHECK_DIAG("%3$d", "[D_SYNTAX] format conversion #1 uses unsupported "
		   "positional format (%n$)", t_int, t_int);
	CHECK_DIAG("%3", "[D_SYNTAX] format conversion #1 name expected "
		   "before end of format string", t_int, t_int);
	CHECK_DIAG("%Z", "[D_SYNTAX] format conversion #1 is undefined: %Z",
		   t_int, t_int);
}

TEST(format_check_errors)
{
	const struct dtype agg = { T_AGG, 8, false, 0, NULL };
	const struct dtype vd = { T_VOID, 0, false, 0, "void" };

	/* printf/err.D_PRINTF_ARG_EXTRA.toomany.r, .widths.r */
	CHECK_DIAG("x = %d y = %d\n", "[D_PRINTF_ARG_EXTRA] printf( ) "
		   "prototype mismatch: only 2 arguments required by this "
		   "format string", t_int, t_int, t_int, t_int);
	CHECK_DIAG("%?d\n", "[D_PRINTF_ARG_EXTRA] printf( ) prototype "
		   "mismatch: only 1 arguments required by this format string",
		   t_int, t_int, t_int);
	/* err.D_PRINTF_ARG_PROTO.novalue.r */
	CHECK_DIAG("%s", "[D_PRINTF_ARG_PROTO] printf( ) prototype mismatch: "
		   "conversion #1 (%s) is missing a corresponding value "
		   "argument", t_int);
	/* err.D_PRINTF_ARG_TYPE.aggarg.r */
	CHECK_DIAG("hello %d %d", "[D_PRINTF_ARG_TYPE] printf( ) argument #3 "
		   "is incompatible with conversion #2 prototype:\n"
		   "\tconversion: %d\n"
		   "\t prototype: char, short, int, long, or long long\n"
		   "\t  argument: aggregation", t_int, agg, t_int);
	/* err.D_PRINTF_ARG_TYPE.recursive.r */
	CHECK_DIAG("%s\n", "[D_PRINTF_ARG_TYPE] printf( ) argument #2 is "
		   "incompatible with conversion #1 prototype:\n"
		   "\tconversion: %s\n"
		   "\t prototype: char [] or string (or use stringof)\n"
		   "\t  argument: void", vd, t_int);
	/* err.D_PRINTF_DYN_PROTO.noprec.r, .nowidth.r */
	CHECK_DIAG("%s %.*d\n", "[D_PRINTF_DYN_PROTO] printf( ) prototype "
		   "mismatch: conversion #2 (%d) is missing a corresponding "
		   "\".*\" argument", t_str, t_int);
	CHECK_DIAG("%s %*d\n", "[D_PRINTF_DYN_PROTO] printf( ) prototype "
		   "mismatch: conversion #2 (%d) is missing a corresponding "
		   "\"*\" argument", t_str, t_int);
	/* err.D_PRINTF_DYN_TYPE.badprec.r, .badwidth.r */
	CHECK_DIAG("%.*d\n", "[D_PRINTF_DYN_TYPE] printf( ) argument #2 is "
		   "incompatible with conversion #1 prototype:\n"
		   "\tconversion: % .* d\n\t prototype: int\n"
		   "\t  argument: string", t_str, t_int, t_int);
	CHECK_DIAG("%*d\n", "[D_PRINTF_DYN_TYPE] printf( ) argument #2 is "
		   "incompatible with conversion #1 prototype:\n"
		   "\tconversion: % * d\n\t prototype: int\n"
		   "\t  argument: string", t_str, t_int, t_int);
	CHECK_DIAG("%d %s %hd", "[D_PRINTF_ARG_TYPE] printf( ) argument #4 is "
		   "incompatible with conversion #3 prototype:\n"
		   "\tconversion: %hd\n\t prototype: short\n"
		   "\t  argument: int", t_int, t_str, t_int, t_int);
	CHECK_DIAG("%d %s %%\n", "ok", t_int, t_str, t_int);
}

static char *traced(const struct fmt_val *v, bool quiet)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);

	fmt_trace(out, v, quiet, NULL);
	fclose(out);
	return buf;
}

TEST(format_trace_and_heading)
{
	struct fmt_val hello = sval("hello world");
	char *buf = NULL, *g;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);

	/* aggs/tst.count_notquiet.r */
	fmt_probe_header(out, true, false);
	fmt_probe_heading(out, true, 0, 1, "", "BEGIN");
	fmt_trace(out, &hello, false, NULL);
	fputc('\n', out);
	fmt_probe_header(out, false, false);
	fmt_probe_heading(out, false, 0, 1, "", "BEGIN");
	fclose(out);
	CHECK_STR(buf, "                   FUNCTION:NAME\n"
		       "                          :BEGIN   hello world"
		       "                      \n"
		       "CPU     ID                    FUNCTION:NAME\n"
		       "  0      1                           :BEGIN ");
	free(buf);

	/* flowindent: dtrace(1)'s "%3d %-41s " and FUNCTION column */
	out = open_memstream(&buf, &len);
	fmt_probe_header(out, false, true);
	fmt_flow_heading(out, false, 1, 2, " -> ", "main", NULL);
	fputc('\n', out);
	fmt_flow_heading(out, true, 1, 4, "| ", "main", "tick");
	fclose(out);
	CHECK_STR(buf, "CPU FUNCTION                                 \n"
		       "  1    -> main                                \n"
		       "    | main:tick                           ");
	free(buf);

	g = traced((const struct fmt_val[]){ ival((uint64_t)-1, 1, true) }, false);
	CHECK_STR(g, "  -1");
	free(g);
	g = traced((const struct fmt_val[]){ ival(12345, 4, true) }, false);
	CHECK_STR(g, "      12345");
	free(g);
	g = traced((const struct fmt_val[]){ ival(7, 8, false) }, false);
	CHECK_STR(g, "                    7");
	free(g);
	g = traced((const struct fmt_val[]){ ival((uint64_t)-7, 8, true) }, true);
	CHECK_STR(g, "-7");
	free(g);
	/* trace/tst.qstring.r: quiet strings are printed bare */
	g = traced((const struct fmt_val[]){ sval(" %should work.\n") }, true);
	CHECK_STR(g, " %should work.\n");
	free(g);
}
