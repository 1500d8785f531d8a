/*
 * parse.c -- recursive descent over the D grammar of DTrace's dt_grammar.y.
 *
 * The parser holds one token of lookahead (p->tok) and, rarely, a second
 * (p->ahead): "(" must know whether a type name follows to tell a cast
 * from a parenthesized expression, and "self" whether a declaration does.
 * Every token is read in the lexer mode the grammar expects at that point
 * (lex.h); the mode is changed only while no second token is held, so a
 * token is never read in the wrong mode.
 *
 * The grammar follows DTrace's, not C's, where they differ: a clause body
 * is a list of statements of which the last may lack its ";"; there are no
 * loops; declarations of variables live outside clauses (with the one
 * extension of "self int x;" / "this int x;" inside, kept as S_DECL);
 * adjacent string literals are not concatenated.  Error messages and the
 * lines they name are DTrace's, so that scripts written against DTrace
 * fail the same way here.
 *
 * Declarations are parsed fully, to find their syntax errors, but only
 * their text is kept (struct decl_type): sema resolves the types.
 */
#include "front/parse.h"

#include <ctype.h>
#include <setjmp.h>
#include <string.h>

#include "front/lex.h"

struct parser {
	struct arena *a;
	struct diag *d;
	const struct parse_opts *o;
	struct lexer lx;
	enum lex_mode mode;	/* the mode the next token is read in */
	struct token tok;	/* the current token */
	struct token ahead;	/* the one after, when has_ahead */
	bool has_ahead;
	struct program *prog;
	int cap_clauses, cap_decls;
	const char **typedefs;	/* typedef names the program declared */
	int ntypedefs, cap_typedefs;
	const char **tags;	/* "struct foo" for each defined struct... */
	int ntags, cap_tags;
};

/* ---- tokens ---- */

static void advance(struct parser *p)
{
	if (p->has_ahead) {
		p->tok = p->ahead;
		p->has_ahead = false;
	} else {
		lex_next(&p->lx, p->mode, &p->tok);
	}
}

static const struct token *peek(struct parser *p)
{
	if (!p->has_ahead) {
		lex_next(&p->lx, p->mode, &p->ahead);
		p->has_ahead = true;
	}
	return &p->ahead;
}

/* Read the tokens after the current one in this mode. */
static void set_mode(struct parser *p, enum lex_mode mode)
{
	p->mode = mode;
}

static bool tok_is(const struct token *t, int op)
{
	return t->kind == TK_PUNCT && t->op == op;
}

static bool is_punct(const struct parser *p, int op)
{
	return tok_is(&p->tok, op);
}

static bool is_kw(const struct parser *p, int kw)
{
	return p->tok.kind == TK_KW && p->tok.op == kw;
}

/* "syntax error near "tok"", the token cropped at a newline. */
static _Noreturn void syntax_error(struct parser *p)
{
	const struct token *t = &p->tok;

	if (t->kind == TK_EOF)
		diag_fail(p->d, t->line, t->col, "D_SYNTAX",
			  "syntax error near end of input");
	diag_fail(p->d, t->line, t->col, "D_SYNTAX", "syntax error near \"%.*s\"",
		  (int)strcspn(t->text, "\n"), t->text);
}

static void expect(struct parser *p, int op)
{
	if (!is_punct(p, op))
		syntax_error(p);
	advance(p);
}

static const char *expect_ident(struct parser *p)
{
	const char *name = p->tok.str;

	if (p->tok.kind != TK_IDENT)
		syntax_error(p);
	advance(p);
	return name;
}

/* ---- type names ---- */

/* The typedefs every D program sees (DTrace's C and D type containers). */
static const char *const builtin_typedefs[] = {
	"int8_t", "int16_t", "int32_t", "int64_t", "intptr_t", "intmax_t",
	"uint8_t", "uint16_t", "uint32_t", "uint64_t", "uintptr_t", "uintmax_t",
	"size_t", "ssize_t", "ptrdiff_t", "off_t", "off64_t", "loff_t",
	"pid_t", "uid_t", "gid_t", "id_t", "dev_t", "time_t", "clock_t",
	"mode_t", "caddr_t", "uchar_t", "ushort_t", "uint_t", "ulong_t",
	"longlong_t", "u_longlong_t", "hrtime_t", "processorid_t", "psetid_t",
	"zoneid_t", "taskid_t", "projid_t", "boolean_t", "bool", "_Bool",
	"u8", "u16", "u32", "u64", "s8", "s16", "s32", "s64",
	"__u8", "__u16", "__u32", "__u64", "__s8", "__s16", "__s32", "__s64",
	/* from the D libraries DTrace ships (procfs.d, sched.d, net.d...) */
	"psinfo_t", "lwpsinfo_t", "cpuinfo_t", "chipid_t", "lgrp_id_t",
	"ipaddr_t", "in6_addr_t", "devinfo_t", "bufinfo_t", "fileinfo_t",
	"conninfo_t", "pktinfo_t", "csinfo_t", "ipinfo_t", "ifinfo_t",
	"ipv4info_t", "ipv6info_t", "tcpinfo_t", "tcpsinfo_t", "tcplsinfo_t",
	"udpinfo_t", "udpsinfo_t", "dtrace_cpu_t",
	NULL,
};

/* "D`foo_t", "vmlinux`u64": a type scoped by its module is a type if its
 * bare name is; "vmlinux`max_pfn" stays a kernel variable. */
static bool is_type_name(void *arg, const char *name)
{
	struct parser *p = arg;
	const char *tick = strrchr(name, '`');

	if (tick && tick > name)
		name = tick + 1;

	for (int i = 0; builtin_typedefs[i]; i++)
		if (!strcmp(builtin_typedefs[i], name))
			return true;
	for (int i = 0; i < p->ntypedefs; i++)
		if (!strcmp(p->typedefs[i], name))
			return true;
	return p->o && p->o->is_type && p->o->is_type(p->o->is_type_arg, name);
}

static void add_typedef(struct parser *p, const char *name)
{
	if (p->ntypedefs == p->cap_typedefs) {
		int cap = p->cap_typedefs ? 2 * p->cap_typedefs : 8;
		const char **v = arena_alloc(p->a, cap * sizeof(*v));
		if (p->ntypedefs)
			memcpy(v, p->typedefs, p->ntypedefs * sizeof(*v));
		p->typedefs = v;
		p->cap_typedefs = cap;
	}
	p->typedefs[p->ntypedefs++] = name;
}

/* Keywords that can begin a type name (type specifiers and qualifiers). */
static const unsigned char type_start_kw[KW_COUNT] = {
	[KW_CHAR] = 1, [KW_SHORT] = 1, [KW_INT] = 1, [KW_LONG] = 1,
	[KW_SIGNED] = 1, [KW_UNSIGNED] = 1, [KW_FLOAT] = 1, [KW_DOUBLE] = 1,
	[KW_VOID] = 1, [KW_STRING] = 1, [KW_STRUCT] = 1, [KW_UNION] = 1,
	[KW_ENUM] = 1, [KW_CONST] = 1, [KW_VOLATILE] = 1, [KW_RESTRICT] = 1,
	[KW_USERLAND] = 1,
};

static bool starts_type(struct parser *p, const struct token *t)
{
	if (t->kind == TK_KW)
		return type_start_kw[t->op];
	return t->kind == TK_IDENT && is_type_name(p, t->str);
}

/* The source text from start up to end, blanks squeezed to one space. */
static const char *squeeze(struct parser *p, const char *start, const char *end)
{
	char *out = arena_alloc(p->a, end - start + 1), *q = out;

	for (const char *s = start; s < end; s++) {
		if (isspace((unsigned char)*s)) {
			if (q > out && q[-1] != ' ')
				*q++ = ' ';
		} else {
			*q++ = *s;
		}
	}
	while (q > out && q[-1] == ' ')
		q--;
	*q = '\0';
	return out;
}

static const char *join(struct parser *p, const char *a, const char *sep,
			const char *b)
{
	return *a ? arena_printf(p->a, "%s%s%s", a, sep, b) : b;
}

/* The end of the current token, for squeeze(). */
static const char *tok_end(const struct parser *p)
{
	return p->tok.start + p->tok.len;
}

struct specs {
	const char *text;	/* "unsigned long", "struct foo" */
	bool has_type;		/* a type specifier was seen */
	int storage;		/* KW_TYPEDEF, KW_EXTERN... or -1 */
	int scope;		/* DECL_GLOBAL, DECL_SELF, DECL_THIS */
	int sou_kind;		/* TOP_STRUCT/UNION/ENUM if a body is defined */
	const char *sou_text;	/* that definition's text, line breaks kept */
	const char *sou_name;	/* its tag, "" if anonymous */
	int sou_line, sou_col;	/* where that text starts */
	bool tagged;		/* a struct, union or enum was named */
};

static struct node *assignment(struct parser *p);
static struct node *conditional(struct parser *p);
static struct node *expression(struct parser *p);
static void decl_specs(struct parser *p, struct specs *s, bool storage_ok);

/* A declarator's outermost derivation, the one DTrace's rules look at:
 * a function declared at top level is an extern, "x[int]" (a tuple) an
 * associative array, "x[4]" an array. */
enum { DERIV_NONE, DERIV_PTR, DERIV_ARRAY, DERIV_TUPLE, DERIV_FUNC };

static const char *declarator(struct parser *p, const char **type,
			      const char *base, int *deriv);
static const char *abstract_declarator(struct parser *p, const char *base);

/* A parameter of a function prototype or a tuple signature, as
 * dt_decl_prototype() checks it. */
struct param {
	const char *type;	/* its type's text, the name left out */
	const char *name;	/* NULL if anonymous */
	bool is_void, is_dyn;	/* "void"; an associative array "a[int]" */
	int line, col;		/* the token after it, where DTrace reports */
};

/* dt_decl_prototype(): each parameter in turn, then "void" alone.  A
 * function's prototype may be "(void)", a tuple signature may not. */
static void check_prototype(struct parser *p, const struct param *v, int n,
			    const char *kind, bool void_ok,
			    const struct token *end)
{
	int nvoid = 0;

	for (int i = 0; i < n; i++) {
		const struct param *a = &v[i];
		const char *bad = a->is_dyn ? "dynamic variable" :
				  a->is_void && !void_ok ? "void" : NULL;
		if (bad)
			diag_fail(p->d, a->line, a->col, "D_DECL_PROTO_TYPE",
				  "%s prototype may not use parameter of type "
				  "%s: %s, parameter #%d", kind, bad,
				  a->name ? a->name : "(anonymous)", i + 1);
		if (a->is_void && a->name)
			diag_fail(p->d, a->line, a->col, "D_DECL_PROTO_NAME",
				  "void parameter may not have a name: %s",
				  a->name);
		for (int j = 0; a->name && j < i; j++)
			if (v[j].name && !strcmp(v[j].name, a->name))
				diag_fail(p->d, a->line, a->col,
					  "D_DECL_PROTO_FORM", "parameter is "
					  "already declared in %s prototype: "
					  "%s, parameter #%d", kind, a->name,
					  i + 1);
		nvoid += a->is_void;
	}
	if (nvoid && n > 1)
		diag_fail(p->d, end->line, end->col, "D_DECL_PROTO_VOID",
			  "void must be sole parameter");
}

/* array-params = "" | parameter-list | conditional */
static const char *array_suffix(struct parser *p, const char *type,
				bool *tuple);
/* params = "(" [param ("," param)* ["," "..."] | "..."] ")" */
static const char *function_suffix(struct parser *p, const char *type);

/*
 * param = decl-specs [declarator | abstract-declarator]
 * Only "register" may be a parameter's storage class (dt_decl_pop_param);
 * DTrace finds out once the parameter has ended.
 */
static void parameter(struct parser *p, struct param *a)
{
	struct specs s;
	int deriv = DERIV_NONE;

	memset(a, 0, sizeof(*a));
	if (is_punct(p, P_ELLIPSIS)) {
		advance(p);
		a->type = "...";
		return;
	}
	decl_specs(p, &s, true);
	if (p->tok.kind == TK_IDENT ||
	    (is_punct(p, '*') && peek(p)->kind == TK_IDENT))
		a->name = declarator(p, &a->type, s.text, &deriv);
	else
		a->type = abstract_declarator(p, s.text);
	if (s.storage >= 0 && s.storage != KW_REGISTER)
		diag_fail(p->d, p->tok.line, p->tok.col, "D_DECL_PARMCLASS",
			  "inappropriate storage class for function or "
			  "associative array parameter");
	a->is_void = !strcmp(a->type, "void");
	a->is_dyn = deriv == DERIV_TUPLE;
	a->line = p->tok.line;
	a->col = p->tok.col;
}

/* The parameters up to close, checked as a kind prototype. */
static void parameter_list(struct parser *p, int close, const char *kind,
			   bool void_ok)
{
	struct param *v = NULL;
	int n = 0, cap = 0;

	while (!is_punct(p, close)) {
		parameter(p, ARENA_PUSH(p->a, v, n, cap));
		if (!is_punct(p, close))
			expect(p, ',');
	}
	check_prototype(p, v, n, kind, void_ok, &p->tok);
}

static const char *function_suffix(struct parser *p, const char *type)
{
	const char *start = p->tok.start;

	expect(p, '(');
	parameter_list(p, ')', "function", true);
	const char *text = squeeze(p, start, tok_end(p));
	advance(p);
	return join(p, type, " ", text);
}

static const char *array_suffix(struct parser *p, const char *type,
				bool *tuple)
{
	const char *start = p->tok.start;

	expect(p, '[');
	if (is_punct(p, P_ELLIPSIS))
		diag_fail(p->d, p->tok.line, p->tok.col, "D_DECL_PROTO_VARARGS",
			  "array prototype may not use a variable-length "
			  "argument list");
	*tuple = starts_type(p, &p->tok);
	if (*tuple)
		parameter_list(p, ']', "array", false);
	else if (!is_punct(p, ']'))
		conditional(p);
	if (!is_punct(p, ']'))
		syntax_error(p);
	const char *text = squeeze(p, start, tok_end(p));
	advance(p);
	return join(p, type, " ", text);
}

/* pointer = ("*" qualifier*)+ -- "char" becomes "char *", then "char **" */
static const char *pointers(struct parser *p, const char *type)
{
	while (is_punct(p, '*')) {
		size_t n = strlen(type);
		type = n && type[n - 1] == '*' ? join(p, type, "", "*") :
						 join(p, type, " ", "*");
		advance(p);
		while (is_kw(p, KW_CONST) || is_kw(p, KW_VOLATILE) ||
		       is_kw(p, KW_RESTRICT))
			advance(p);
	}
	return type;
}

/* suffixes = ("[" array-params "]" | "(" params ")")*
 * *first gets the first one's derivation, the outermost. */
static const char *suffixes(struct parser *p, const char *type, int *first)
{
	*first = DERIV_NONE;
	for (;;) {
		bool tuple = false;
		int d;

		if (is_punct(p, '[')) {
			type = array_suffix(p, type, &tuple);
			d = tuple ? DERIV_TUPLE : DERIV_ARRAY;
		} else if (is_punct(p, '(')) {
			type = function_suffix(p, type);
			d = DERIV_FUNC;
		} else {
			return type;
		}
		if (*first == DERIV_NONE)
			*first = d;
	}
}

/*
 * abstract-declarator = pointer* direct-abstract?
 * direct-abstract = ["(" abstract-declarator ")"] suffixes
 * A "(" opens a nested declarator if "*", "(" or "[" follows, otherwise a
 * parameter list: "int (*)(int)" against "int (int)".
 */
static const char *abstract_declarator(struct parser *p, const char *base)
{
	diag_check_stack(p->d, p->tok.line, p->tok.col);	/* "((((*))))" */
	const char *type = pointers(p, base);
	int deriv;

	if (is_punct(p, '(')) {
		const struct token *n = peek(p);
		if (tok_is(n, '*') || tok_is(n, '(') || tok_is(n, '[')) {
			advance(p);
			const char *inner = abstract_declarator(p, "");
			expect(p, ')');
			type = arena_printf(p->a, "%s (%s)", type, inner);
		}
	}
	return suffixes(p, type, &deriv);
}

/*
 * declarator = pointer* direct-declarator
 * direct-declarator = (ident | "(" declarator ")") suffixes
 * Returns the declared name; *type gets the full type's text and *deriv
 * (if not NULL) its outermost derivation: a nested declarator's own if it
 * has one ("(*fp)(int)" is a pointer), else the first suffix's, else the
 * pointer's ("*f(int)" is a function).
 */
static const char *declarator(struct parser *p, const char **type,
			      const char *base, int *deriv)
{
	diag_check_stack(p->d, p->tok.line, p->tok.col);	/* "((((x))))" */
	const char *t = pointers(p, base), *name;
	int inner_deriv = DERIV_NONE, outer;
	bool ptr = t != base;

	if (is_punct(p, '(')) {
		const char *inner;
		advance(p);
		name = declarator(p, &inner, "", &inner_deriv);
		expect(p, ')');
		t = arena_printf(p->a, "%s (%s)", t, inner);
	} else {
		name = expect_ident(p);
	}
	*type = suffixes(p, t, &outer);
	if (deriv)
		*deriv = inner_deriv ? inner_deriv : outer ? outer :
			 ptr ? DERIV_PTR : DERIV_NONE;
	return name;
}

/* type-name = specifier-qualifier-list abstract-declarator? */
static struct decl_type *type_name(struct parser *p)
{
	struct decl_type *dt = arena_alloc(p->a, sizeof(*dt));
	struct specs s;

	dt->line = p->tok.line;
	dt->col = p->tok.col;
	decl_specs(p, &s, false);
	dt->text = abstract_declarator(p, s.text);
	return dt;
}

/* struct-member = specifier-qualifier-list member-declarator
 *                 ("," member-declarator)* ";"
 * member-declarator = declarator [":" conditional] | ":" conditional */
static void struct_member(struct parser *p)
{
	struct specs s;
	const char *type;

	decl_specs(p, &s, false);
	for (;;) {
		if (!is_punct(p, ':'))
			declarator(p, &type, s.text, NULL);
		if (is_punct(p, ':')) {
			advance(p);
			conditional(p);
		}
		if (!is_punct(p, ','))
			break;
		advance(p);
	}
	expect(p, ';');
}

/* enumerator = ident ["=" conditional] */
static void enumerator(struct parser *p)
{
	expect_ident(p);
	if (is_punct(p, '=')) {
		advance(p);
		conditional(p);
	}
}

/* A struct, union or enum may be defined once: "struct foo {" again is
 * D_DECL_TYPERED, reported at the "{". */
static void define_tag(struct parser *p, const char *name)
{
	for (int i = 0; i < p->ntags; i++)
		if (!strcmp(p->tags[i], name))
			diag_fail(p->d, p->tok.line, p->tok.col, "D_DECL_TYPERED",
				  "type redeclared: %s", name);
	if (p->ntags == p->cap_tags) {
		p->cap_tags = p->cap_tags ? 2 * p->cap_tags : 8;
		const char **v = arena_alloc(p->a, p->cap_tags * sizeof(*v));
		if (p->ntags)
			memcpy(v, p->tags, p->ntags * sizeof(*v));
		p->tags = v;
	}
	p->tags[p->ntags++] = name;
}

/*
 * sou-specifier = ("struct" | "union") [tag] ["{" struct-member+ "}"]
 * enum-specifier = "enum" [tag] ["{" enumerator ("," enumerator)* "}"]
 * A definition's whole text is kept in s->sou_text for sema.
 */
static void sou_specifier(struct parser *p, struct specs *s)
{
	const char *start = p->tok.start;
	int kw = p->tok.op, line = p->tok.line, col = p->tok.col;
	const char *tag = "";

	advance(p);
	if (p->tok.kind == TK_IDENT) {
		tag = p->tok.str;
		advance(p);
	}
	const char *sou = arena_printf(p->a, "%s%s%s", lex_keyword_name(kw),
				       *tag ? " " : "", tag), *prefix = s->text;
	s->text = join(p, s->text, " ", sou);
	s->has_type = true;
	s->tagged = true;
	if (!is_punct(p, '{')) {
		if (!*tag)
			syntax_error(p);
		return;
	}
	if (*tag)
		define_tag(p, sou);
	advance(p);
	do {
		if (kw == KW_ENUM) {
			enumerator(p);
			if (is_punct(p, ','))
				advance(p);
		} else {
			struct_member(p);
		}
	} while (!is_punct(p, '}'));
	s->sou_kind = kw == KW_ENUM ? TOP_ENUM : kw == KW_UNION ? TOP_UNION :
		      TOP_STRUCT;
	/* verbatim, not squeezed: sema reparses it and reports a member's
	 * error at the member's own line, as DTrace does; the specifiers
	 * before it come along ("long struct s {...}" is D_DECL_LONGINT) */
	s->sou_text = arena_printf(p->a, "%s%s%.*s", prefix, *prefix ? " " : "",
				   (int)(tok_end(p) - start), start);
	s->sou_name = tag;
	s->sou_line = line;
	s->sou_col = col;
	advance(p);
}

static void set_storage(struct parser *p, struct specs *s, int kw)
{
	if (s->storage >= 0)
		diag_fail(p->d, p->tok.line, p->tok.col, "D_DECL_CLASS",
			  "only one storage class allowed in a declaration");
	s->storage = kw;
	s->scope = kw == KW_SELF ? DECL_SELF : kw == KW_THIS ? DECL_THIS :
		   DECL_GLOBAL;
}

/*
 * decl-specs = (storage-class | type-specifier | qualifier)+
 * storage-class = auto | register | static | extern | typedef | self | this
 * A typedef name counts as a type specifier only before any other: in
 * "foo_t foo_t;" the second one is the declared name.
 */
static void decl_specs(struct parser *p, struct specs *s, bool storage_ok)
{
	static const unsigned char storage_kw[KW_COUNT] = {
		[KW_AUTO] = 1, [KW_REGISTER] = 1, [KW_STATIC] = 1,
		[KW_EXTERN] = 1, [KW_TYPEDEF] = 1, [KW_SELF] = 1, [KW_THIS] = 1,
	};
	bool any = false;

	diag_check_stack(p->d, p->tok.line, p->tok.col);	/* nested structs */
	memset(s, 0, sizeof(*s));
	s->text = "";
	s->storage = -1;
	for (;; any = true) {
		const struct token *t = &p->tok;
		if (t->kind == TK_KW && storage_kw[t->op] && storage_ok) {
			set_storage(p, s, t->op);
		} else if (t->kind == TK_KW && (t->op == KW_STRUCT ||
			   t->op == KW_UNION || t->op == KW_ENUM)) {
			sou_specifier(p, s);
			continue;
		} else if (t->kind == TK_KW && type_start_kw[t->op]) {
			s->text = join(p, s->text, " ", lex_keyword_name(t->op));
			s->has_type |= t->op != KW_CONST && t->op != KW_VOLATILE &&
				       t->op != KW_RESTRICT && t->op != KW_USERLAND;
		} else if (t->kind == TK_IDENT && !s->has_type &&
			   is_type_name(p, t->str)) {
			s->text = join(p, s->text, " ", t->str);
			s->has_type = true;
		} else {
			break;
		}
		advance(p);
	}
	if (!any)
		syntax_error(p);
}

/* ---- expressions ---- */

static struct node *new_node(struct parser *p, enum node_kind kind,
			     const struct token *at)
{
	return node_new(p->a, kind, at->line, at->col);
}

static struct node *new_binary(struct parser *p, int op, struct node *l,
			       struct node *r)
{
	struct node *n = node_new(p->a, N_BINARY, l->line, l->col);

	n->op = op;
	n->a = l;
	n->b = r;
	return n;
}

/* args = assignment ("," assignment)* */
static void arguments(struct parser *p, struct node_list *l)
{
	node_list_push(p->a, l, assignment(p));
	while (is_punct(p, ',')) {
		advance(p);
		node_list_push(p->a, l, assignment(p));
	}
}

static struct node *literal(struct parser *p)
{
	const struct token *t = &p->tok;
	struct node *n = new_node(p, t->kind == TK_INT ? N_INT : N_STR, t);

	if (t->kind == TK_INT) {
		n->ival = t->ival;
		n->type = t->itype;
	} else {
		n->str = t->str;
		n->slen = t->slen;
		n->type = (struct dtype){ .kind = T_STRING,
					  .size = (uint32_t)t->slen + 1,
					  .name = "string" };
	}
	advance(p);
	return n;
}

/* primary = ident | agg | int | string | "self" | "this" | "(" expression ")" */
static struct node *primary(struct parser *p)
{
	const struct token *t = &p->tok;
	struct node *n;

	switch (t->kind) {
	case TK_INT:
	case TK_STR:
		return literal(p);
	case TK_IDENT:
	case TK_AGG:
		n = new_node(p, t->kind == TK_IDENT ? N_IDENT : N_AGG, t);
		n->str = t->str;
		/* the library's argN are its probe's own (sema.c: ident) */
		n->raw_arg = p->o && p->o->is_library && t->kind == TK_IDENT &&
			     strncmp(t->str, "arg", 3) == 0 &&
			     t->str[3] >= '0' && t->str[3] <= '9' && !t->str[4];
		advance(p);
		return n;
	case TK_KW:
		if (t->op != KW_SELF && t->op != KW_THIS)
			syntax_error(p);
		n = new_node(p, N_IDENT, t);
		n->str = t->op == KW_SELF ? "self" : "this";
		advance(p);
		return n;
	default:
		if (!is_punct(p, '('))
			syntax_error(p);
		advance(p);
		n = expression(p);
		expect(p, ')');
		return n;
	}
}

/* offsetof = "offsetof" "(" type-name "," ident ")" */
static struct node *offsetof_expr(struct parser *p)
{
	struct node *n = new_node(p, N_OFFSETOF, &p->tok);

	advance(p);
	expect(p, '(');
	n->decl_type = type_name(p);
	expect(p, ',');
	n->str = expect_ident(p);
	expect(p, ')');
	return n;
}

/* xlate = "xlate" "<" type-name ">" "(" expression ")" */
static struct node *xlate_expr(struct parser *p)
{
	struct node *n = new_node(p, N_XLATE, &p->tok);

	advance(p);
	expect(p, '<');
	n->decl_type = type_name(p);
	expect(p, '>');
	expect(p, '(');
	n->a = expression(p);
	expect(p, ')');
	return n;
}

static struct node *call(struct parser *p, struct node *fn)
{
	struct node *n = node_new(p->a, N_CALL, fn->line, fn->col);

	if (fn->kind == N_IDENT) {
		n->str = fn->str;
		n->fn = dfunc_lookup(n->str);	/* a name means one function */
	} else {
		n->a = fn;
	}
	advance(p);
	if (!is_punct(p, ')'))
		arguments(p, &n->args);
	expect(p, ')');
	return n;
}

static struct node *postfix_op(struct parser *p, struct node *base)
{
	struct node *n;
	int op = p->tok.op;

	if (op == '(')
		return call(p, base);
	n = node_new(p->a, op == '[' ? N_INDEX : op == '.' || op == OP_ARROW ?
		     N_MEMBER : N_INCDEC, base->line, base->col);
	n->a = base;
	advance(p);
	if (op == '[') {
		arguments(p, &n->args);
		expect(p, ']');
	} else if (op == '.' || op == OP_ARROW) {
		n->op = op;
		n->str = expect_ident(p);
	} else {
		n->op = op == P_INC ? OP_POSTINC : OP_POSTDEC;
	}
	return n;
}

/*
 * postfix = primary ("[" args "]" | "(" [args] ")" | "." ident
 *                    | "->" ident | "++" | "--")*
 * with offsetof and xlate as further primaries
 */
static struct node *postfix(struct parser *p)
{
	struct node *n;

	if (is_kw(p, KW_OFFSETOF))
		n = offsetof_expr(p);
	else if (is_kw(p, KW_XLATE))
		n = xlate_expr(p);
	else
		n = primary(p);
	while (p->tok.kind == TK_PUNCT &&
	       (p->tok.op == '[' || p->tok.op == '(' || p->tok.op == '.' ||
		p->tok.op == OP_ARROW || p->tok.op == P_INC || p->tok.op == P_DEC))
		n = postfix_op(p, n);
	return n;
}

static struct node *cast(struct parser *p);

static bool type_in_parens(struct parser *p)
{
	return is_punct(p, '(') && starts_type(p, peek(p));
}

/* sizeof = "sizeof" "(" type-name ")" | "sizeof" unary */
static struct node *unary(struct parser *p);
static struct node *sizeof_expr(struct parser *p)
{
	struct node *n = new_node(p, N_SIZEOF, &p->tok);

	advance(p);
	if (type_in_parens(p)) {
		advance(p);
		n->decl_type = type_name(p);
		expect(p, ')');
	} else {
		n->a = unary(p);
	}
	return n;
}

/*
 * unary = ("++" | "--") unary | ("&" | "*" | "+" | "-" | "~" | "!") cast
 *       | sizeof | "stringof" unary | postfix
 */
static struct node *unary(struct parser *p)
{
	const struct token t = p->tok;
	struct node *n;

	diag_check_stack(p->d, t.line, t.col);	/* "!!!!x", "((((x))))" */
	if (is_kw(p, KW_SIZEOF))
		return sizeof_expr(p);
	if (is_kw(p, KW_STRINGOF)) {
		n = new_node(p, N_STRINGOF, &t);
		advance(p);
		n->a = unary(p);
		return n;
	}
	if (is_punct(p, P_INC) || is_punct(p, P_DEC)) {
		n = new_node(p, N_INCDEC, &t);
		n->op = t.op == P_INC ? OP_PREINC : OP_PREDEC;
		advance(p);
		n->a = unary(p);
		return n;
	}
	if (t.kind != TK_PUNCT || t.op >= 256 || !strchr("&*+-~!", t.op))
		return postfix(p);
	n = new_node(p, N_UNARY, &t);
	n->op = t.op;
	advance(p);
	n->a = cast(p);
	return n;
}

/* cast = "(" type-name ")" cast | unary */
static struct node *cast(struct parser *p)
{
	struct node *n;

	diag_check_stack(p->d, p->tok.line, p->tok.col);	/* "(int)(int)..." */
	if (!type_in_parens(p))
		return unary(p);
	n = new_node(p, N_CAST, &p->tok);
	advance(p);
	n->decl_type = type_name(p);
	expect(p, ')');
	n->a = cast(p);
	return n;
}

/* Binary operators by precedence, loosest first.  ORDER PREC */
static const struct {
	int op;
	int prec;
} binops[] = {
	{ OP_LOR, 1 }, { OP_LXOR, 2 }, { OP_LAND, 3 }, { '|', 4 }, { '^', 5 },
	{ '&', 6 }, { OP_EQ, 7 }, { OP_NE, 7 }, { '<', 8 }, { OP_LE, 8 },
	{ '>', 8 }, { OP_GE, 8 }, { OP_SHL, 9 }, { OP_SHR, 9 }, { '+', 10 },
	{ '-', 10 }, { '*', 11 }, { '/', 11 }, { '%', 11 },
};

static int binop_prec(const struct token *t)
{
	if (t->kind != TK_PUNCT)
		return 0;
	for (size_t i = 0; i < sizeof(binops) / sizeof(binops[0]); i++)
		if (binops[i].op == t->op)
			return binops[i].prec;
	return 0;
}

/*
 * binary(prec) = cast (binop binary(prec + 1))*, for operators of at
 * least this precedence; all of them associate to the left:
 *   logical-or  = logical-xor ("||" logical-xor)*
 *   logical-xor = logical-and ("^^" logical-and)*
 *   logical-and = or ("&&" or)*
 *   or = xor ("|" xor)*      xor = and ("^" and)*     and = eq ("&" eq)*
 *   eq = rel (("==" | "!=") rel)*
 *   rel = shift (("<" | "<=" | ">" | ">=") shift)*
 *   shift = add (("<<" | ">>") add)*
 *   add = mul (("+" | "-") mul)*
 *   mul = cast (("*" | "/" | "%") cast)*
 */
static struct node *binary(struct parser *p, int min_prec)
{
	struct node *l = cast(p);

	for (;;) {
		int prec = binop_prec(&p->tok), op = p->tok.op;
		if (prec == 0 || prec < min_prec)
			return l;
		advance(p);
		l = new_binary(p, op, l, binary(p, prec + 1));
	}
}

/* conditional = logical-or ["?" expression ":" conditional] */
static struct node *conditional(struct parser *p)
{
	diag_check_stack(p->d, p->tok.line, p->tok.col);	/* "a ? b : c ? ..." */
	struct node *c = binary(p, 1), *n;

	if (!is_punct(p, '?'))
		return c;
	n = node_new(p->a, N_TERNARY, c->line, c->col);
	n->a = c;
	advance(p);
	n->b = expression(p);
	expect(p, ':');
	n->c = conditional(p);
	return n;
}

/* The arithmetic operator of a compound assignment token, 0 if none. */
static int compound_op(int tok)
{
	static const int map[][2] = {
		{ P_ADD_EQ, '+' }, { P_SUB_EQ, '-' }, { P_MUL_EQ, '*' },
		{ P_DIV_EQ, '/' }, { P_MOD_EQ, '%' }, { P_AND_EQ, '&' },
		{ P_OR_EQ, '|' }, { P_XOR_EQ, '^' }, { P_SHL_EQ, OP_SHL },
		{ P_SHR_EQ, OP_SHR },
	};

	for (size_t i = 0; i < sizeof(map) / sizeof(map[0]); i++)
		if (map[i][0] == tok)
			return map[i][1];
	return 0;
}

/* assignment = conditional [assign-op assignment]; sema checks the lvalue */
static struct node *assignment(struct parser *p)
{
	diag_check_stack(p->d, p->tok.line, p->tok.col);	/* "a = b = ..." */
	struct node *l = conditional(p), *n;
	int op = p->tok.kind == TK_PUNCT ? p->tok.op : 0;
	int arith = compound_op(op);

	if (op != '=' && !arith)
		return l;
	n = node_new(p->a, N_ASSIGN, l->line, l->col);
	n->op = arith ? arith : '=';
	n->compound = arith != 0;
	n->a = l;
	advance(p);
	n->b = assignment(p);
	return n;
}

/* expression = assignment ("," assignment)* */
static struct node *expression(struct parser *p)
{
	struct node *n = assignment(p);

	while (is_punct(p, ',')) {
		advance(p);
		n = new_binary(p, ',', n, assignment(p));
	}
	return n;
}

/* ---- statements ---- */

static void statement(struct parser *p, struct node_list *l, bool last_ok);

/* block = "{" statement* [expression] "}" */
static void block(struct parser *p, struct node_list *l)
{
	expect(p, '{');
	while (!is_punct(p, '}'))
		statement(p, l, true);
	advance(p);
}

/* stmt-or-block = block | statement */
static void stmt_or_block(struct parser *p, struct node_list *l)
{
	if (is_punct(p, '{'))
		block(p, l);
	else
		statement(p, l, false);
}

/* if = "if" "(" expression ")" stmt-or-block ["else" stmt-or-block] */
static struct node *if_statement(struct parser *p)
{
	struct node *n = new_node(p, S_IF, &p->tok);

	advance(p);
	expect(p, '(');
	n->a = expression(p);
	expect(p, ')');
	stmt_or_block(p, &n->body);
	if (is_kw(p, KW_ELSE)) {
		advance(p);
		stmt_or_block(p, &n->else_body);
	}
	return n;
}

/* local-decl = ("self" | "this") decl-specs declarator ("," declarator)* ";" */
static void local_decl(struct parser *p, struct node_list *l)
{
	struct specs s;

	decl_specs(p, &s, true);
	for (;;) {
		struct node *n = new_node(p, S_DECL, &p->tok);
		n->decl_type = arena_alloc(p->a, sizeof(*n->decl_type));
		n->decl_type->line = n->line;
		n->decl_type->col = n->col;
		int deriv;

		n->str = declarator(p, &n->decl_type->text, s.text, &deriv);
		n->decl_type->tuple = deriv == DERIV_TUPLE;
		n->decl_scope = s.scope;
		node_list_push(p->a, l, n);
		if (!is_punct(p, ','))
			break;
		advance(p);
	}
	expect(p, ';');
}

/*
 * statement = ";" | expression ";" | if | block | local-decl
 * In a clause body the last expression may go without its ";" (last_ok).
 */
static void statement(struct parser *p, struct node_list *l, bool last_ok)
{
	struct node *n;

	diag_check_stack(p->d, p->tok.line, p->tok.col);	/* "{{{{" */
	if (is_punct(p, ';')) {
		advance(p);
		return;
	}
	if (is_punct(p, '{')) {
		n = new_node(p, S_BLOCK, &p->tok);
		block(p, &n->body);
	} else if (is_kw(p, KW_IF)) {
		n = if_statement(p);
	} else if ((is_kw(p, KW_SELF) || is_kw(p, KW_THIS)) &&
		   starts_type(p, peek(p))) {
		local_decl(p, l);
		return;
	} else {
		n = ast_expr_stmt(p->a, expression(p));
		if (!(last_ok && is_punct(p, '}')))
			expect(p, ';');
	}
	node_list_push(p->a, l, n);
}

/* ---- probe descriptions and clauses ---- */

/* Split "prov:mod:func:name" into fields filled from the right. */
static int split_desc(struct arena *a, const char *text, struct probe_desc *pd)
{
	const char *f[4] = { "", "", "", "" };
	const char *s = text, *colon;
	int n = 1;

	for (const char *q = text; *q; q++)
		n += *q == ':';
	if (n > 4)
		return -1;
	for (int i = 4 - n; i < 4; i++) {
		colon = strchr(s, ':');
		f[i] = colon ? arena_strndup(a, s, colon - s) : arena_strdup(a, s);
		s = colon ? colon + 1 : s + strlen(s);
	}
	pd->text = text;
	pd->prov = f[0];
	pd->mod = f[1];
	pd->func = f[2];
	pd->name = f[3];
	return 0;
}

int parse_probe_desc(struct arena *a, const char *text, struct probe_desc *pd)
{
	memset(pd, 0, sizeof(*pd));
	if (!text || !*text || strpbrk(text, " \t\n/{},;"))
		return -1;
	return split_desc(a, arena_strdup(a, text), pd);
}

/* pdesc = pspec | integer (a probe id) */
static struct probe_desc *probe_description(struct parser *p)
{
	struct probe_desc *pd = arena_alloc(p->a, sizeof(*pd));
	const struct token *t = &p->tok;
	const char *text;

	if (t->kind != TK_PSPEC && t->kind != TK_INT)
		syntax_error(p);
	text = t->kind == TK_INT ? t->text :
	       lex_expand_pspec(&p->lx, t->str, t->line, t->col);
	if (split_desc(p->a, text, pd) < 0)
		diag_fail(p->d, t->line, t->col, "D_PDESC_INVAL",
			  "invalid probe description \"%s\": too many fields",
			  text);
	pd->line = t->line;
	pd->col = t->col;
	advance(p);
	return pd;
}

static void push_desc(struct parser *p, struct clause *c, struct probe_desc *pd,
		      int *cap)
{
	if (c->ndescs == *cap) {
		*cap = *cap ? 2 * *cap : 4;
		struct probe_desc **v = arena_alloc(p->a, *cap * sizeof(*v));
		if (c->ndescs)
			memcpy(v, c->descs, c->ndescs * sizeof(*v));
		c->descs = v;
	}
	c->descs[c->ndescs++] = pd;
}

static void add_clause(struct parser *p, struct clause *c)
{
	struct program *prog = p->prog;

	if (prog->nclauses == p->cap_clauses) {
		p->cap_clauses = p->cap_clauses ? 2 * p->cap_clauses : 8;
		struct clause **v = arena_alloc(p->a, p->cap_clauses * sizeof(*v));
		if (prog->nclauses)
			memcpy(v, prog->clauses, prog->nclauses * sizeof(*v));
		prog->clauses = v;
	}
	c->id = prog->nclauses;
	prog->clauses[prog->nclauses++] = c;
}

/* The body, read in LEX_EXPR; the token after "}" is back in LEX_TOP. */
static void clause_body(struct parser *p, struct clause *c)
{
	set_mode(p, LEX_EXPR);
	advance(p);
	while (!is_punct(p, '}'))
		statement(p, &c->body, true);
	c->has_body = true;
	c->end_line = p->tok.line;
	set_mode(p, LEX_TOP);
	advance(p);
}

/* The predicate between slashes, read in LEX_EXPR. */
static void predicate(struct parser *p, struct clause *c)
{
	set_mode(p, LEX_EXPR);
	advance(p);
	c->pred = expression(p);
	if (p->tok.kind != TK_EPRED)
		syntax_error(p);
	advance(p);
	if (!is_punct(p, '{'))
		diag_fail(p->d, c->pred->line, c->pred->col, "D_SYNTAX",
			  "expected actions { } following probe description "
			  "and predicate");
}

/* clause = pdesc ("," pdesc)* ["/" expression "/"] ["{" statement* "}"] */
static void clause(struct parser *p)
{
	struct clause *c = arena_alloc(p->a, sizeof(*c));
	int cap = 0;

	c->line = p->tok.line;
	c->col = p->tok.col;
	push_desc(p, c, probe_description(p), &cap);
	while (is_punct(p, ',')) {
		advance(p);
		push_desc(p, c, probe_description(p), &cap);
	}
	if (is_punct(p, '/'))
		predicate(p, c);
	if (is_punct(p, '{'))
		clause_body(p, c);
	else if (!c->pred && !(p->o && p->o->probe_only))
		diag_fail(p->d, c->descs[0]->line, c->descs[0]->col, "D_SYNTAX",
			  "expected predicate and/or actions following probe "
			  "description");
	add_clause(p, c);
}

/* ---- top-level declarations ---- */

static struct top_decl *add_decl(struct parser *p, int kind, const char *type,
				 int line, int col)
{
	struct program *prog = p->prog;
	struct top_decl *td = arena_alloc(p->a, sizeof(*td));

	td->kind = kind;
	td->type = arena_alloc(p->a, sizeof(*td->type));
	td->type->text = type;
	td->type->line = td->line = line;
	td->type->col = td->col = col;
	if (prog->ndecls == p->cap_decls) {
		p->cap_decls = p->cap_decls ? 2 * p->cap_decls : 8;
		struct top_decl **v = arena_alloc(p->a, p->cap_decls * sizeof(*v));
		if (prog->ndecls)
			memcpy(v, prog->decls, prog->ndecls * sizeof(*v));
		prog->decls = v;
	}
	prog->decls[prog->ndecls++] = td;
	return td;
}

/* End a top-level definition at its ";": what follows is outer scope. */
static void end_top_decl(struct parser *p)
{
	if (!is_punct(p, ';'))
		syntax_error(p);
	set_mode(p, LEX_TOP);
	advance(p);
}

/* inline = "inline" decl-specs declarator "=" assignment ";" */
static void inline_definition(struct parser *p)
{
	struct specs s;
	const char *type, *name;
	int line, col;

	advance(p);
	decl_specs(p, &s, false);
	line = p->tok.line;
	col = p->tok.col;
	name = declarator(p, &type, s.text, NULL);
	expect(p, '=');
	struct node *init = assignment(p);
	struct top_decl *td = add_decl(p, TOP_INLINE, type, line, col);
	td->name = name;
	td->init = init;
	end_top_decl(p);
}

/* xlator-member = ident "=" assignment ";" */
static struct node *translator_member(struct parser *p)
{
	struct node *n = new_node(p, N_ASSIGN, &p->tok);

	n->op = '=';
	n->a = new_node(p, N_IDENT, &p->tok);
	n->a->str = expect_ident(p);
	expect(p, '=');
	n->b = assignment(p);
	expect(p, ';');
	return n;
}

/* translator = "translator" type-name "<" type-name ident ">"
 *              "{" xlator-member* "}" ";" */
static void translator_definition(struct parser *p)
{
	const char *start = p->tok.start;
	int line = p->tok.line, col = p->tok.col;

	advance(p);
	struct decl_type *out = type_name(p);
	expect(p, '<');
	struct decl_type *in = type_name(p);
	const char *in_name = expect_ident(p);
	expect(p, '>');
	expect(p, '{');
	struct node_list members = { 0 };

	while (!is_punct(p, '}'))
		node_list_push(p->a, &members, translator_member(p));
	struct top_decl *td = add_decl(p, TOP_XLATOR,
				       squeeze(p, start, tok_end(p)), line, col);
	td->name = out->text;
	td->out_type = out;
	td->in_type = in;
	td->in_name = in_name;
	td->members = members;
	td->end_line = p->tok.line;
	advance(p);
	end_top_decl(p);
}

/* probe-params = "(" [param ("," param)*] ")" -- a probe's argument
 * types, kept in pp; a lone "void" declares none. */
static void probe_params(struct parser *p, struct provider_probe *pp)
{
	int cap = 0;

	expect(p, '(');
	while (!is_punct(p, ')')) {
		if (is_punct(p, P_ELLIPSIS))
			syntax_error(p);	/* a probe's arity is fixed */
		struct param a;

		parameter(p, &a);
		*ARENA_PUSH(p->a, pp->args, pp->nargs, cap) = a.type;
		if (!is_punct(p, ')'))
			expect(p, ',');
	}
	advance(p);
	if (pp->nargs == 1 && strcmp(pp->args[0], "void") == 0)
		pp->nargs = 0;
}

/* probe-decl = "probe" ident probe-params [":" params] ";"
 * The translated list after ":" is checked but not kept (ast.h). */
static void provider_probe(struct parser *p, struct provider_probe *pp)
{
	if (!is_kw(p, KW_PROBE))
		syntax_error(p);
	advance(p);
	pp->line = p->tok.line;
	pp->col = p->tok.col;
	pp->name = expect_ident(p);
	probe_params(p, pp);
	if (is_punct(p, ':')) {
		advance(p);
		function_suffix(p, "");
	}
	expect(p, ';');
}

/* provider = "provider" ident "{" probe-decl* "}" ";" */
static void provider_definition(struct parser *p)
{
	const char *start = p->tok.start;
	int line = p->tok.line, col = p->tok.col;
	struct provider_probe *probes = NULL;
	int nprobes = 0, cap = 0;

	advance(p);
	const char *name = expect_ident(p);
	expect(p, '{');
	while (!is_punct(p, '}'))
		provider_probe(p, ARENA_PUSH(p->a, probes, nprobes, cap));
	struct top_decl *td = add_decl(p, TOP_PROVIDER,
				       squeeze(p, start, tok_end(p)), line, col);
	td->name = name;
	td->probes = probes;
	td->nprobes = nprobes;
	advance(p);
	end_top_decl(p);
}

/* init-declarator = declarator -- D has no initializers.  "auto",
 * "register" and "static" mean nothing to a D variable; a function so
 * declared is an extern, as in dt_node_decl().  "extern T name;" is no
 * D variable: it gives the kernel symbol `name a type (TOP_EXTERN). */
static void init_declarator(struct parser *p, const struct specs *s)
{
	int line = p->tok.line, col = p->tok.col, deriv;
	const char *type, *name = declarator(p, &type, s->text, &deriv);
	bool is_typedef = s->storage == KW_TYPEDEF;
	struct top_decl *td;

	if ((s->storage == KW_AUTO || s->storage == KW_REGISTER ||
	     s->storage == KW_STATIC) && deriv != DERIV_FUNC)
		diag_fail(p->d, p->tok.line, p->tok.col, "D_DECL_BADCLASS",
			  "specified storage class not appropriate in D");
	td = add_decl(p, is_typedef ? TOP_TYPEDEF :
			 s->storage == KW_EXTERN && deriv != DERIV_FUNC &&
			 deriv != DERIV_TUPLE ? TOP_EXTERN : TOP_VAR,
		      type, line, col);
	td->type->tuple = deriv == DERIV_TUPLE;
	td->name = name;
	td->scope = s->scope;
	if (is_typedef)
		add_typedef(p, name);
}

/* declaration = decl-specs [declarator ("," declarator)*] ";"
 * Without a declarator it must define or name a struct, union or enum:
 * "extern int;" declares nothing. */
static void declaration(struct parser *p)
{
	struct specs s;

	decl_specs(p, &s, true);
	if (s.sou_text) {
		struct top_decl *td = add_decl(p, s.sou_kind, s.sou_text,
					       s.sou_line, s.sou_col);
		td->name = s.sou_name;
	}
	if (is_punct(p, ';') && !s.tagged)
		diag_fail(p->d, p->tok.line, p->tok.col, "D_DECL_USELESS",
			  "useless declaration");
	if (!is_punct(p, ';')) {
		init_declarator(p, &s);
		while (is_punct(p, ',')) {
			advance(p);
			init_declarator(p, &s);
		}
	}
	end_top_decl(p);
}

/* external-decl = inline | translator | provider | declaration */
static void external_declaration(struct parser *p)
{
	set_mode(p, LEX_EXPR);
	if (is_kw(p, KW_INLINE))
		inline_definition(p);
	else if (is_kw(p, KW_TRANSLATOR))
		translator_definition(p);
	else if (is_kw(p, KW_PROVIDER))
		provider_definition(p);
	else
		declaration(p);
}

/* program = (clause | external-decl)* */
static void program(struct parser *p)
{
	set_mode(p, LEX_TOP);
	advance(p);
	while (p->tok.kind != TK_EOF) {
		if (p->tok.kind == TK_KW || p->tok.kind == TK_IDENT)
			external_declaration(p);
		else
			clause(p);
	}
	p->prog->eof_line = p->tok.line;
	if (p->prog->nclauses == 0 && p->prog->ndecls == 0 && !(p->o && p->o->allow_empty))
		diag_fail(p->d, p->tok.line, 0, "D_EMPTY",
			  "empty D program translation unit");
}

struct program *parse_program(struct arena *a, const char *text,
			      const struct parse_opts *o, struct diag *d)
{
	jmp_buf env, *saved = d->env;
	struct parser *p = arena_alloc(a, sizeof(*p));

	p->a = a;
	p->d = d;
	p->o = o;
	p->prog = arena_alloc(a, sizeof(*p->prog));
	p->prog->filename = o && o->filename ? o->filename : "";
	lex_init(&p->lx, a, d, text, o);
	p->lx.is_type = is_type_name;
	p->lx.is_type_arg = p;
	d->env = &env;
	if (setjmp(env)) {
		d->env = saved;
		return NULL;
	}
	program(p);
	p->prog->pragmas = p->lx.pragmas;
	p->prog->npragmas = p->lx.npragmas;
	p->prog->attrs = p->lx.attrs;
	p->prog->nattrs = p->lx.nattrs;
	p->prog->depends = p->lx.depends;
	p->prog->ndepends = p->lx.ndepends;
	p->prog->macro_used = p->lx.macro_used;
	d->env = saved;
	return p->prog;
}
