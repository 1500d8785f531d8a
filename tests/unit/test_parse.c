/*
 * test_parse.c -- the D parser: trees checked as S-expressions, probe
 * descriptions, declarations, and DTrace's syntax errors with their lines.
 */
#include "test.h"

#include <setjmp.h>
#include <stdio.h>

#include "front/lex.h"
#include "front/parse.h"

static struct arena A;
static struct diag D;

static struct program *parse(const char *text, const struct parse_opts *o)
{
	memset(&D, 0, sizeof(D));
	return parse_program(&A, text, o, &D);
}

static const char *op_name(int op)
{
	static const char *const names[] = {
		"||", "&&", "^^", "==", "!=", "<=", ">=", "<<", ">>", "->",
		"++x", "--x", "x++", "x--",
	};
	static char buf[2];

	if (op >= OP_LOR && op <= OP_POSTDEC)
		return names[op - OP_LOR];
	buf[0] = (char)op;
	return buf;
}

static void sx(char *out, size_t n, const struct node *e);

static void sx_list(char *out, size_t n, const struct node_list *l)
{
	for (int i = 0; i < l->n; i++) {
		size_t len = strlen(out);
		snprintf(out + len, n - len, " ");
		sx(out + len + 1, n - len - 1, l->v[i]);
	}
}

/* The tree as a compact S-expression: (+ a (* b c)). */
static void sx(char *out, size_t n, const struct node *e)
{
	char a[512] = "", b[512] = "", c[512] = "", args[512] = "";

	if (e->a)
		sx(a, sizeof(a), e->a);
	if (e->b)
		sx(b, sizeof(b), e->b);
	if (e->c)
		sx(c, sizeof(c), e->c);
	sx_list(args, sizeof(args), &e->args);
	switch (e->kind) {
	case N_INT: snprintf(out, n, "%lld", (long long)e->ival); break;
	case N_STR: snprintf(out, n, "\"%s\"", e->str); break;
	case N_IDENT: snprintf(out, n, "%s", e->str); break;
	case N_AGG: snprintf(out, n, "@%s", e->str); break;
	case N_UNARY: snprintf(out, n, "(%s %s)", op_name(e->op), a); break;
	case N_BINARY: snprintf(out, n, "(%s %s %s)", op_name(e->op), a, b); break;
	case N_TERNARY: snprintf(out, n, "(? %s %s %s)", a, b, c); break;
	case N_ASSIGN:
		snprintf(out, n, "(%s%s %s %s)", e->compound ? op_name(e->op) : "",
			 "=", a, b);
		break;
	case N_INCDEC: snprintf(out, n, "(%s %s)", op_name(e->op), a); break;
	case N_CALL: snprintf(out, n, "(call %s%s)", e->str, args); break;
	case N_INDEX: snprintf(out, n, "(index %s%s)", a, args); break;
	case N_MEMBER:
		snprintf(out, n, "(%s %s %s)", op_name(e->op), a, e->str);
		break;
	case N_CAST: snprintf(out, n, "(cast <%s> %s)", e->decl_type->text, a); break;
	case N_SIZEOF:
		snprintf(out, n, "(sizeof %s)", e->decl_type ? e->decl_type->text : a);
		break;
	case N_OFFSETOF:
		snprintf(out, n, "(offsetof <%s> %s)", e->decl_type->text, e->str);
		break;
	case N_STRINGOF: snprintf(out, n, "(stringof %s)", a); break;
	case N_XLATE: snprintf(out, n, "(xlate <%s> %s)", e->decl_type->text, a); break;
	default: snprintf(out, n, "?%s", node_kind_name[e->kind]); break;
	}
}

/* Parse "BEGIN { <expr> }" and render the expression. */
static const char *expr(const char *src)
{
	static char out[2048];
	char text[1024];
	struct program *p;

	snprintf(text, sizeof(text), "BEGIN { %s }", src);
	p = parse(text, NULL);
	if (!p)
		return D.msg;
	const struct node *s = p->clauses[0]->body.v[0];
	sx(out, sizeof(out), s->kind == S_EXPR ? s->a : s);
	return out;
}

TEST(parse_precedence)
{
	CHECK_STR(expr("a + b * c"), "(+ a (* b c))");
	CHECK_STR(expr("a * b + c"), "(+ (* a b) c)");
	CHECK_STR(expr("a - b - c"), "(- (- a b) c)");
	CHECK_STR(expr("a << 1 + 2"), "(<< a (+ 1 2))");
	CHECK_STR(expr("a < b == c < d"), "(== (< a b) (< c d))");
	CHECK_STR(expr("a & b ^ c | d"), "(| (^ (& a b) c) d)");
	CHECK_STR(expr("a || b ^^ c && d"), "(|| a (^^ b (&& c d)))");
	CHECK_STR(expr("a ? b : c ? d : e"), "(? a b (? c d e))");
	CHECK_STR(expr("a = b = c"), "(= a (= b c))");
	CHECK_STR(expr("a += b, c"), "(, (+= a b) c)");
	CHECK_STR(expr("a <<= 2"), "(<<= a 2)");
	CHECK_STR(expr("-a * !b"), "(* (- a) (! b))");
	CHECK_STR(expr("*p++"), "(* (x++ p))");
	CHECK_STR(expr("++a[1]"), "(++x (index a 1))");
	CHECK_STR(expr("&x->y.z"), "(& (. (-> x y) z))");
	CHECK_STR(expr("~a % b / c"), "(/ (% (~ a) b) c)");
}

TEST(parse_postfix_and_primaries)
{
	CHECK_STR(expr("f()"), "(call f)");
	CHECK_STR(expr("printf(\"%d\\n\", a[1, \"x\"])"),
		  "(call printf \"%d\n\" (index a 1 \"x\"))");
	CHECK_STR(expr("self->x = this->y"), "(= (-> self x) (-> this y))");
	CHECK_STR(expr("args[0]->pid"), "(-> (index args 0) pid)");
	CHECK_STR(expr("`max_pfn + vmlinux`x"), "(+ `max_pfn vmlinux`x)");
	CHECK_STR(expr("stringof(a) + stringof b"), "(+ (stringof a) (stringof b))");
	CHECK_STR(expr("x.self.cgroup->self"), "(-> (. (. x self) cgroup) self)");
	CHECK_STR(expr("'A' + 0x10"), "(+ 65 16)");
}

TEST(parse_casts_and_types)
{
	CHECK_STR(expr("(int)x"), "(cast <int> x)");
	CHECK_STR(expr("(x)"), "x");
	CHECK_STR(expr("(x) + 1"), "(+ x 1)");
	CHECK_STR(expr("(unsigned long long)x * 2"),
		  "(* (cast <unsigned long long> x) 2)");
	CHECK_STR(expr("(struct task_struct *)curthread"),
		  "(cast <struct task_struct *> curthread)");
	CHECK_STR(expr("(char **)p"), "(cast <char **> p)");
	CHECK_STR(expr("(string)arg0"), "(cast <string> arg0)");
	CHECK_STR(expr("(uint64_t)(int)x"), "(cast <uint64_t> (cast <int> x))");
	CHECK_STR(expr("-(int)x"), "(- (cast <int> x))");
	CHECK_STR(expr("sizeof (int)"), "(sizeof int)");
	CHECK_STR(expr("sizeof x"), "(sizeof x)");
	CHECK_STR(expr("sizeof(x)"), "(sizeof x)");
	CHECK_STR(expr("sizeof (struct foo [4])"), "(sizeof struct foo [4])");
	CHECK_STR(expr("offsetof(struct foo, bar)"), "(offsetof <struct foo> bar)");
	CHECK_STR(expr("xlate <psinfo_t *> (curthread)->pr_pid"),
		  "(-> (xlate <psinfo_t *> curthread) pr_pid)");
}

TEST(parse_typedef_names_make_casts)
{
	struct program *p = parse("typedef unsigned long my_t;\n"
				  "BEGIN { x = (my_t)1; }", NULL);
	char out[256];

	CHECK(p != NULL);
	CHECK(p->ndecls == 1 && p->decls[0]->kind == TOP_TYPEDEF);
	CHECK_STR(p->decls[0]->name, "my_t");
	CHECK_STR(p->decls[0]->type->text, "unsigned long");
	sx(out, sizeof(out), p->clauses[0]->body.v[0]->a);
	CHECK_STR(out, "(= x (cast <my_t> 1))");
}

TEST(parse_statements)
{
	struct program *p = parse("BEGIN { ; x = 1; if (x) y = 2; else { z = 3; w = 4 } "
				  "{ a++ } @c[probefunc, 1] = count(); @ = sum(2); "
				  "@b = max(x); self int q; trace(1) }", NULL);
	const struct node_list *b;

	CHECK(p != NULL);
	if (!p)
		return;
	b = &p->clauses[0]->body;
	CHECK(b->n == 8);
	CHECK(b->v[0]->kind == S_EXPR);
	CHECK(b->v[1]->kind == S_IF);
	CHECK(b->v[1]->body.n == 1 && b->v[1]->else_body.n == 2);
	CHECK(b->v[2]->kind == S_BLOCK && b->v[2]->body.n == 1);
	CHECK(b->v[3]->kind == S_AGG);
	CHECK_STR(b->v[3]->agg->str, "c");
	CHECK(b->v[3]->args.n == 2);
	CHECK_STR(b->v[3]->call->str, "count");
	CHECK(b->v[4]->kind == S_AGG);
	CHECK_STR(b->v[4]->agg->str, "");
	CHECK(b->v[5]->kind == S_AGG && b->v[5]->args.n == 0);
	CHECK(b->v[6]->kind == S_DECL && b->v[6]->decl_scope == DECL_SELF);
	CHECK_STR(b->v[6]->str, "q");
	CHECK_STR(b->v[6]->decl_type->text, "int");
	CHECK(b->v[7]->kind == S_EXPR);
	CHECK(b->v[7]->line == 1);
}

TEST(parse_clauses)
{
	struct program *p = parse("syscall::read:entry, syscall::write:entry\n"
				  "/pid == 1/\n{ }\nBEGIN {}\ntick-1s\n/1/ { exit(0); }\n"
				  ":::END { }", NULL);

	CHECK(p != NULL);
	if (!p)
		return;
	CHECK(p->nclauses == 4);
	CHECK(p->clauses[0]->ndescs == 2);
	CHECK_STR(p->clauses[0]->descs[1]->func, "write");
	CHECK(p->clauses[0]->pred != NULL);
	CHECK(p->clauses[0]->has_body && p->clauses[0]->body.n == 0);
	CHECK(p->clauses[1]->line == 4 && p->clauses[1]->id == 1);
	CHECK_STR(p->clauses[2]->descs[0]->name, "tick-1s");
	CHECK_STR(p->clauses[3]->descs[0]->name, "END");
	CHECK(p->eof_line == 7);
}

TEST(parse_probe_only_clauses)
{
	struct parse_opts o = { .probe_only = true };
	struct program *p = parse("BEGIN", &o);

	CHECK(p && p->nclauses == 1 && !p->clauses[0]->has_body);
	p = parse("BEGIN", NULL);
	CHECK(p == NULL);
	CHECK_STR(D.msg, "expected predicate and/or actions following probe description");
}

TEST(parse_probe_desc_fields)
{
	struct probe_desc pd;

	CHECK(parse_probe_desc(&A, "BEGIN", &pd) == 0);
	CHECK_STR(pd.prov, "");
	CHECK_STR(pd.name, "BEGIN");
	CHECK(parse_probe_desc(&A, "read:entry", &pd) == 0);
	CHECK_STR(pd.func, "read");
	CHECK_STR(pd.name, "entry");
	CHECK_STR(pd.mod, "");
	CHECK(parse_probe_desc(&A, "syscall:::", &pd) == 0);
	CHECK_STR(pd.prov, "syscall");
	CHECK_STR(pd.name, "");
	CHECK(parse_probe_desc(&A, "pid123:libc.so.6:malloc:entry", &pd) == 0);
	CHECK_STR(pd.mod, "libc.so.6");
	CHECK(parse_probe_desc(&A, "a:b:c:d:e", &pd) == -1);
	CHECK(parse_probe_desc(&A, "", &pd) == -1);
}

TEST(parse_macros_in_descriptions)
{
	char *argv[] = { "x.d", "open", NULL };
	struct parse_opts o = { .argc = 2, .argv = argv, .target_pid = 99 };
	struct program *p = parse("pid$target::$1:entry { trace($1); }", &o);

	CHECK(p != NULL);
	if (!p)
		return;
	CHECK_STR(p->clauses[0]->descs[0]->prov, "pid99");
	CHECK_STR(p->clauses[0]->descs[0]->func, "open");
	CHECK(p->macro_used[1]);
}

TEST(parse_top_level_declarations)
{
	struct program *p = parse(
		"int x, *y[4];\nself string s;\nthis int t;\n"
		"inline int FOUR = 2 + 2;\n"
		"struct foo { int a; char *b; unsigned c : 3; } *fp;\n"
		"enum color { RED, GREEN = 3 };\n"
		"int a[int, string];\n"
		"translator struct out < struct in *p > { x = p->y; };\n"
		"#pragma D option quiet\n"
		"BEGIN { }", NULL);

	CHECK(p != NULL);
	if (!p)
		return;
	CHECK(p->ndecls == 10);
	CHECK_STR(p->decls[1]->type->text, "int * [4]");
	CHECK_STR(p->decls[1]->name, "y");
	CHECK(p->decls[2]->scope == DECL_SELF);
	CHECK_STR(p->decls[2]->type->text, "string");
	CHECK(p->decls[3]->scope == DECL_THIS);
	CHECK(p->decls[4]->kind == TOP_INLINE && p->decls[4]->init != NULL);
	CHECK(p->decls[5]->kind == TOP_STRUCT);
	CHECK_STR(p->decls[5]->type->text,
		  "struct foo { int a; char *b; unsigned c : 3; }");
	CHECK_STR(p->decls[6]->type->text, "struct foo *");
	CHECK(p->decls[7]->kind == TOP_ENUM);
	CHECK_STR(p->decls[8]->type->text, "int [int, string]");
	CHECK(p->decls[9]->kind == TOP_XLATOR);
	CHECK_STR(p->decls[9]->name, "struct out");
	CHECK(p->npragmas == 1);
	CHECK_STR(p->pragmas[0]->name, "quiet");
}

TEST(parse_provider_probes)
{
	struct program *p = parse(
		"provider myserv {\n"
		"\tprobe request__start(int reason, const char *);\n"
		"\tprobe lock__acquire(struct lk *, uint64_t) : (uintptr_t, int);\n"
		"\tprobe tick();\n\tprobe idle(void);\n};\n"
		"#pragma D attributes Evolving/Evolving/Common provider myserv args\n",
		NULL);

	CHECK(p != NULL && p->ndecls == 1);
	if (!p || p->ndecls != 1)
		return;
	const struct top_decl *td = p->decls[0];

	CHECK(td->kind == TOP_PROVIDER && td->nprobes == 4);
	CHECK_STR(td->name, "myserv");
	if (td->nprobes != 4)
		return;
	CHECK_STR(td->probes[0].name, "request__start");
	CHECK(td->probes[0].nargs == 2 && td->probes[0].line == 2);
	CHECK_STR(td->probes[0].args[0], "int");
	CHECK_STR(td->probes[0].args[1], "const char *");
	CHECK(td->probes[1].nargs == 2);	/* the native list, not ":" */
	CHECK_STR(td->probes[1].args[0], "struct lk *");
	CHECK(td->probes[2].nargs == 0 && td->probes[3].nargs == 0);
}

/* Parse and expect this tag, message and line. */
static void check_error(const char *text, const char *tag, const char *msg,
			int line)
{
	struct program *p = parse(text, NULL);

	CHECK(p == NULL);
	CHECK_STR(D.tag, tag);
	CHECK_STR(D.msg, msg);
	if (D.line != line)
		fprintf(stderr, "[%s]: line %d, want %d\n", text, D.line, line);
	CHECK(D.line == line);
}

TEST(parse_syntax_errors)
{
	check_error("BEGIN\n{\n\ttrace(epid);\n}\n}", "D_SYNTAX",
		    "syntax error near \"}\"", 5);
	check_error("BEGIN\n{\n\targs[0\n}", "D_SYNTAX", "syntax error near \"}\"", 4);
	check_error("BEGIN\n{\n\texit(0);\n", "D_SYNTAX",
		    "syntax error near end of input", 4);
	check_error("int i = 0;", "D_SYNTAX", "syntax error near \"=\"", 1);
	check_error("BEGIN {\n\tint i = 0;\n}", "D_SYNTAX", "syntax error near \"int\"", 2);
	check_error("BEGIN { typedef int x; }", "D_SYNTAX",
		    "syntax error near \"typedef\"", 1);
	check_error("profile-1\nint i;\n{ }", "D_SYNTAX",
		    "expected predicate and/or actions following probe description", 1);
	check_error("profile-1:int i\n{ }", "D_SYNTAX",
		    "expected predicate and/or actions following probe description", 1);
	check_error("BEGIN\n/1/\n;", "D_SYNTAX",
		    "expected actions { } following probe description and predicate", 2);
	check_error("BEGIN {\n\ttick-10ms\n{\n}\n}", "D_SYNTAX", "syntax error near \"ms\"", 2);
	check_error("BEGIN { i /-= i; }", "D_SYNTAX", "syntax error near \"-=\"", 1);
	check_error("BEGIN { x[10]=[0, 1]; }", "D_SYNTAX", "syntax error near \"[\"", 1);
	check_error("BEGIN\n/i < != > 10/ { }", "D_SYNTAX", "syntax error near \"!=\"", 2);
	check_error("BEGIN { sizeof(*); }", "D_SYNTAX", "syntax error near \")\"", 1);
	check_error("BEGIN { i = 123$pid; }", "D_SYNTAX", "syntax error near \"$pid\"", 1);
	check_error("BEGIN { x = \"a\" \"b\"; }", "D_SYNTAX",
		    "syntax error near \"\"b\"\"", 1);
	check_error("struct foo`bar {\n\n};", "D_SYNTAX", "syntax error near \"}\"", 3);
	check_error("translator struct o (struct i *u)\n{\n}", "D_SYNTAX",
		    "syntax error near \"{\"", 2);
	check_error("BEGIN { if (x) y = 1 }", "D_SYNTAX", "syntax error near \"}\"", 1);
	check_error("provider p {\n\tprobe a(int;\n};", "D_SYNTAX",
		    "syntax error near \";\"", 2);
	check_error("provider p {\n\tprobe a(int, ...);\n};", "D_SYNTAX",
		    "syntax error near \"...\"", 2);
}

TEST(parse_other_errors)
{
	check_error("/* nothing */\n", "D_EMPTY", "empty D program translation unit", 2);
	check_error("#pragma D option quiet\n", "D_EMPTY",
		    "empty D program translation unit", 2);
	check_error("int a[...];", "D_DECL_PROTO_VARARGS",
		    "array prototype may not use a variable-length argument list", 1);
	check_error("struct s { int a; };\ntranslator struct s\n{ int b; } < int x > { };",
		    "D_DECL_TYPERED", "type redeclared: struct s", 3);
	check_error("self this int x;", "D_DECL_CLASS",
		    "only one storage class allowed in a declaration", 1);
	check_error("a:b:c:d:e { }", "D_PDESC_INVAL",
		    "invalid probe description \"a:b:c:d:e\": too many fields", 1);
	check_error("BEGIN { trace($1); }", "D_MACRO_UNDEF",
		    "macro argument $1 is not defined", 1);
	check_error("int*x\n", "D_SYNTAX", "syntax error near end-of-input", 2);
}

TEST(parse_env_is_restored)
{
	jmp_buf outer;
	struct program *p;

	memset(&D, 0, sizeof(D));
	D.env = &outer;
	p = parse_program(&A, "BEGIN {", NULL, &D);
	CHECK(p == NULL);
	CHECK(D.env == &outer);
	arena_free(&A);
}
