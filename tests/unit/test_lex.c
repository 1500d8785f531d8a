/*
 * test_lex.c -- the D tokenizer: modes, constants, macros, control lines
 * and the errors DTrace reports from its lexer, with their lines.
 */
#include "test.h"

#include <setjmp.h>
#include <stdbool.h>
#include <stdio.h>
#include <unistd.h>

#include "front/lex.h"
#include "front/parse.h"

struct lexrun {
	struct arena a;
	struct diag d;
	jmp_buf env;
	struct lexer lx;
	struct token t[64];
	int n;
	bool failed;
};

static bool no_types(void *arg, const char *name)
{
	return !strcmp(name, "my_t");
}

/* Tokenize text in one mode until end of input or an error. */
static void lex_run(struct lexrun *r, const char *text, enum lex_mode mode,
		    const struct parse_opts *o)
{
	memset(r, 0, sizeof(*r));
	r->d.env = &r->env;
	lex_init(&r->lx, &r->a, &r->d, text, o);
	r->lx.is_type = no_types;
	if (setjmp(r->env)) {
		r->failed = true;
		return;
	}
	do
		lex_next(&r->lx, mode, &r->t[r->n]);
	while (r->t[r->n++].kind != TK_EOF && r->n < 64);
}

TEST(lex_operators_longest_match)
{
	struct lexrun r;

	lex_run(&r, "a<<=b>>c->d...++--^^!=", LEX_EXPR, NULL);
	CHECK(!r.failed);
	CHECK(r.t[1].op == P_SHL_EQ);
	CHECK(r.t[3].op == OP_SHR);
	CHECK(r.t[5].op == OP_ARROW);
	CHECK(r.t[6].kind == TK_IDENT);	/* after ->, a name */
	CHECK(r.t[7].op == P_ELLIPSIS);
	CHECK(r.t[8].op == P_INC && r.t[9].op == P_DEC);
	CHECK(r.t[10].op == OP_LXOR && r.t[11].op == OP_NE);
	arena_free(&r.a);
}

TEST(lex_keywords_and_member_names)
{
	struct lexrun r;

	lex_run(&r, "self->self.this sizeof `max_pfn vmlinux`x", LEX_EXPR, NULL);
	CHECK(r.t[0].kind == TK_KW && r.t[0].op == KW_SELF);
	CHECK(r.t[2].kind == TK_IDENT);
	CHECK_STR(r.t[2].str, "self");
	CHECK(r.t[4].kind == TK_IDENT);
	CHECK(r.t[5].kind == TK_KW && r.t[5].op == KW_SIZEOF);
	CHECK_STR(r.t[6].str, "`max_pfn");
	CHECK_STR(r.t[7].str, "vmlinux`x");
	arena_free(&r.a);
}

TEST(lex_integer_types)
{
	struct lexrun r;

	lex_run(&r, "1 0x7fffffff 0x80000000 2147483648 10u 10l 10ull 017 'a' 'ab' '\\0'",
		LEX_EXPR, NULL);
	CHECK(!r.failed);
	CHECK_STR(r.t[0].itype.name, "int");
	CHECK_STR(r.t[1].itype.name, "int");
	CHECK_STR(r.t[2].itype.name, "unsigned int");
	CHECK_STR(r.t[3].itype.name, "long");
	CHECK_STR(r.t[4].itype.name, "unsigned int");
	CHECK_STR(r.t[5].itype.name, "long");
	CHECK_STR(r.t[6].itype.name, "unsigned long long");
	CHECK(r.t[7].ival == 15);
	CHECK(r.t[8].ival == 'a');
	CHECK(r.t[9].ival == 0x6162);
	CHECK(r.t[10].ival == 0 && r.t[10].kind == TK_INT);
	arena_free(&r.a);
}

TEST(lex_string_escapes)
{
	struct lexrun r;

	lex_run(&r, "\"a\\tb\\x41\\101\\0z\" \"x\"", LEX_EXPR, NULL);
	CHECK(r.t[0].kind == TK_STR);
	CHECK(r.t[0].slen == 7);
	CHECK(memcmp(r.t[0].str, "a\tbAA\0z", 7) == 0);
	CHECK_STR(r.t[0].text, "\"a\\tb\\x41\\101\\0z\"");
	CHECK(r.t[1].kind == TK_STR);	/* adjacent literals stay apart */
	arena_free(&r.a);
}

/* stresc2chr's rule: an escape it does not know keeps its backslash */
TEST(lex_unknown_escapes_keep_backslash)
{
	struct lexrun r;

	lex_run(&r, "\"\\?\\'\\c\\x\" '\\?'", LEX_EXPR, NULL);
	CHECK(r.t[0].kind == TK_STR);
	CHECK(r.t[0].slen == 7);
	CHECK(memcmp(r.t[0].str, "\\?\\'\\c\0", 7) == 0);
	CHECK(r.t[1].kind == TK_INT && r.t[1].ival == ('\\' << 8 | '?'));
	arena_free(&r.a);
}

TEST(lex_ten_ms_is_int_then_name)
{
	struct lexrun r;

	lex_run(&r, "tick-10ms", LEX_EXPR, NULL);
	CHECK(r.t[2].kind == TK_INT && r.t[2].ival == 10);
	CHECK_STR(r.t[3].str, "ms");
	arena_free(&r.a);
}

TEST(lex_predicate_slash)
{
	struct lexrun r;

	lex_run(&r, "a / b /\n{", LEX_EXPR, NULL);
	CHECK(r.t[1].kind == TK_PUNCT && r.t[1].op == '/');
	CHECK(r.t[3].kind == TK_EPRED);
	arena_free(&r.a);
}

TEST(lex_top_mode_descriptions)
{
	struct lexrun r;

	lex_run(&r, "syscall::read*:entry, tick-1s\nBEGIN /x int*x my_t foo*", LEX_TOP, NULL);
	CHECK(!r.failed);
	CHECK(r.t[0].kind == TK_PSPEC);
	CHECK_STR(r.t[0].str, "syscall::read*:entry");
	CHECK(r.t[1].kind == TK_PUNCT && r.t[1].op == ',');
	CHECK_STR(r.t[2].str, "tick-1s");
	CHECK_STR(r.t[3].str, "BEGIN");
	CHECK(r.t[3].line == 2);
	CHECK(r.t[4].op == '/');
	CHECK_STR(r.t[5].str, "x");
	CHECK(r.t[6].kind == TK_KW && r.t[6].op == KW_INT);	/* int*x: a type */
	CHECK(r.t[7].kind == TK_PSPEC);
	CHECK_STR(r.t[7].str, "*x");
	CHECK(r.t[8].kind == TK_IDENT);	/* typedef name */
	CHECK(r.t[9].kind == TK_PSPEC);	/* foo* is a glob */
	arena_free(&r.a);
}

TEST(lex_comments_and_lines)
{
	struct lexrun r;

	lex_run(&r, "#!/usr/sbin/dtrace -s\n/* a\nb */ x // c\n y;", LEX_EXPR, NULL);
	CHECK(!r.failed);
	CHECK(r.t[0].line == 3 && r.t[0].col == 6);
	CHECK(r.t[1].line == 4 && r.t[1].col == 2);
	arena_free(&r.a);
}

TEST(lex_cpp_line_markers)
{
	struct lexrun r;

	lex_run(&r, "# 1 \"x.d\"\na\n#line 40\nb\n  # 7\nc;", LEX_EXPR, NULL);
	CHECK(!r.failed);
	CHECK(r.t[0].line == 1);
	CHECK(r.t[1].line == 40);
	CHECK(r.t[2].line == 7);
	arena_free(&r.a);
}

TEST(lex_pragma_options)
{
	struct lexrun r;

	lex_run(&r, "#pragma D option quiet\n#pragma D option bufsize=4m\n"
		"#pragma D depends_on module vmlinux\n#pragma ident \"x\"\n"
		"#pragma D binding \"1.1\" foo\nx;", LEX_EXPR, NULL);
	CHECK(!r.failed);
	CHECK(r.lx.npragmas == 2);
	CHECK_STR(r.lx.pragmas[0]->name, "quiet");
	CHECK(r.lx.pragmas[0]->value == NULL);
	CHECK_STR(r.lx.pragmas[1]->name, "bufsize");
	CHECK_STR(r.lx.pragmas[1]->value, "4m");
	CHECK(r.lx.pragmas[1]->line == 2);
	CHECK(r.t[0].line == 6);
	arena_free(&r.a);
}

/* Lex text and check the error's tag, message and line. */
static void check_error(const char *text, enum lex_mode mode, const char *tag,
			const char *msg, int line)
{
	struct lexrun r;

	lex_run(&r, text, mode, NULL);
	CHECK(r.failed);
	CHECK_STR(r.d.tag, tag);
	CHECK_STR(r.d.msg, msg);
	if (r.d.line != line)
		fprintf(stderr, "%s: line %d, want %d\n", text, r.d.line, line);
	CHECK(r.d.line == line);
	arena_free(&r.a);
}

TEST(lex_errors)
{
	check_error("x\n'\n'", LEX_EXPR, "D_CHR_NL",
		    "newline encountered in character constant", 3);
	check_error("''", LEX_EXPR, "D_CHR_NULL", "empty character constant", 1);
	check_error("'abcdefghi'", LEX_EXPR, "D_CHR_OFLOW",
		    "character constant is too long", 1);
	check_error("\n\"ab\n\"", LEX_EXPR, "D_STR_NL",
		    "newline encountered in string literal", 3);
	check_error("0128", LEX_EXPR, "D_INT_DIGIT",
		    "constant 0128 contains invalid digit 8", 1);
	check_error("0x12345678123456781", LEX_EXPR, "D_INT_OFLOW",
		    "constant 0x12345678123456781 results in integer overflow", 1);
	check_error("1.5", LEX_EXPR, "D_SYNTAX",
		    "floating-point constants are not permitted", 1);
	check_error("a)", LEX_EXPR, "D_SYNTAX", "extra ) in input stream", 1);
	check_error("a]", LEX_EXPR, "D_SYNTAX", "extra ] in input stream", 1);
	check_error("}", LEX_EXPR, "D_SYNTAX", "extra } in input stream", 1);
	check_error("(a/\n{", LEX_EXPR, "D_SYNTAX",
		    "closing ) expected in predicate before /", 2);
	check_error("a[0/ {", LEX_EXPR, "D_SYNTAX",
		    "closing ] expected in predicate before /", 1);
	check_error("$-1", LEX_EXPR, "D_SYNTAX", "syntax error near \"$\"", 1);
	check_error("a # b", LEX_EXPR, "D_SYNTAX", "syntax error near \"#\"", 1);
	check_error("}", LEX_TOP, "D_SYNTAX", "syntax error near \"}\"", 1);
	check_error("\n/* x", LEX_EXPR, "D_SYNTAX",
		    "end-of-file encountered before matching */", 2);
	check_error("/* /* */", LEX_EXPR, "D_SYNTAX",
		    "/* encountered inside a comment", 1);
	check_error("x;\n#pragma", LEX_EXPR, "D_SYNTAX",
		    "end-of-file encountered before end of control line", 2);
	check_error("x\n", LEX_EXPR, "D_SYNTAX", "syntax error near end-of-input", 2);
	check_error("#define X 1\n", LEX_EXPR, "D_PRAGCTL_INVAL",
		    "invalid control directive: #define", 1);
	check_error("\n#pragma D error \"boom\" now\n", LEX_EXPR, "D_PRAGERR",
		    "#error: boom now ", 2);
	check_error("#pragma D option\n", LEX_EXPR, "D_PRAGMA_MALFORM",
		    "malformed #pragma option <option>=<val>", 1);
	check_error("#pragma D option a=1 * 2\n", LEX_EXPR, "D_PRAGMA_MALFORM",
		    "superfluous arguments specified for #pragma option", 1);
	check_error("#pragma D depends_on library net.d\n", LEX_EXPR,
		    "D_PRAGMA_DEPEND",
		    "main program may not explicitly depend on a library", 1);
	check_error("#pragma D attributes bad foo\n", LEX_EXPR, "D_PRAGMA_INVAL",
		    "invalid attributes specified by #pragma attributes", 1);
	check_error("#pragma D attributes bad\n", LEX_EXPR, "D_PRAGMA_MALFORM",
		    "malformed #pragma attributes <attributes> <ident>", 1);
}

TEST(lex_macro_arguments)
{
	char *argv[] = { "x.d", "42", "foo", "a b", "\"q\"", "-3", NULL };
	struct parse_opts o = { .argc = 6, .argv = argv, .target_pid = 77 };
	struct lexrun r;

	lex_run(&r, "$1 $2 $3 $4 $5 $$1 $target $pid $$0", LEX_EXPR, &o);
	CHECK(!r.failed);
	CHECK(r.t[0].kind == TK_INT && r.t[0].ival == 42);
	CHECK_STR(r.t[0].text, "$1");
	CHECK(r.t[1].kind == TK_IDENT);
	CHECK_STR(r.t[1].str, "foo");
	CHECK(r.t[2].kind == TK_STR);
	CHECK_STR(r.t[2].str, "a b");
	CHECK_STR(r.t[3].str, "q");
	CHECK(r.t[4].kind == TK_INT && r.t[4].ival == -3);
	CHECK(r.t[5].kind == TK_STR);
	CHECK_STR(r.t[5].str, "42");
	CHECK(r.t[6].ival == 77);
	CHECK(r.t[7].ival == getpid());
	CHECK_STR(r.t[8].str, "x.d");
	CHECK(r.lx.macro_used[0] && r.lx.macro_used[1] && r.lx.macro_used[5]);
	arena_free(&r.a);
}

TEST(lex_macro_errors_and_defaults)
{
	char *argv[] = { "x.d", NULL };
	struct parse_opts o = { .argc = 1, .argv = argv };
	struct parse_opts dflt = { .argc = 1, .argv = argv, .defaultargs = true };
	struct lexrun r;

	lex_run(&r, "\n$2", LEX_EXPR, &o);
	CHECK(r.failed);
	CHECK_STR(r.d.tag, "D_MACRO_UNDEF");
	CHECK_STR(r.d.msg, "macro argument $2 is not defined");
	CHECK(r.d.line == 2);
	arena_free(&r.a);

	lex_run(&r, "$$nope", LEX_EXPR, &o);
	CHECK_STR(r.d.tag, "D_MACRO_UNDEF");
	CHECK_STR(r.d.msg, "macro variable $$nope is not defined");
	arena_free(&r.a);

	lex_run(&r, "$3 $$3", LEX_EXPR, &dflt);
	CHECK(!r.failed);
	CHECK(r.t[0].kind == TK_INT && r.t[0].ival == 0);
	CHECK(r.t[1].kind == TK_STR && r.t[1].slen == 0);
	arena_free(&r.a);
}

TEST(lex_expand_probe_descriptions)
{
	char *argv[] = { "x.d", "read", NULL };
	struct parse_opts o = { .argc = 2, .argv = argv, .target_pid = 1234 };
	struct lexrun r;

	lex_run(&r, "", LEX_TOP, &o);
	CHECK_STR(lex_expand_pspec(&r.lx, "pid$target:libc.so.6:malloc:entry", 1, 1),
		  "pid1234:libc.so.6:malloc:entry");
	CHECK_STR(lex_expand_pspec(&r.lx, "syscall::$1:entry", 1, 1),
		  "syscall::read:entry");
	CHECK_STR(lex_expand_pspec(&r.lx, "BEGIN", 1, 1), "BEGIN");
	arena_free(&r.a);
}
