/*
 * ctype_parse.c -- C declarations as text to types: the struct, union,
 * enum and typedef definitions the parser keeps verbatim, and type names
 * ("struct foo *", "int [4]") in casts, sizeof and variable declarations.
 *
 * The text is tokenized again here (comments and newlines allowed, so a
 * definition kept with its line breaks reports errors at the right line)
 * and parsed by recursive descent, C's declarator rules included.  The
 * checks and their order are DTrace's (dt_decl.c): specifier combinations
 * as they accumulate (D_DECL_COMBO, D_DECL_CHARATTR...), then each member
 * when its declarator ends (D_DECL_INCOMPLETE, D_DECL_VOIDOBJ, bit-field
 * checks), each enumerator likewise.  DTrace reports these at the token
 * that ends the declarator -- the ',' or ';' -- and so do we.
 *
 * Struct layout is DTrace's, see ctype.h: align each member for its type
 * after the end of the previous one rounded up to a byte; a bit-field's
 * type is the smallest power-of-two integer holding its bits; no tail
 * padding.
 */
#include "front/ctype_impl.h"

#include <ctype.h>
#include <limits.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>

/* ---- tokens ---- */

enum { CK_EOF, CK_ID, CK_NUM, CK_CHR, CK_STR, CK_PUNCT };

/* two-character operators, as single ints */
#define OP2(a, b) ((a) << 8 | (b))

struct ctok {
	int kind;		/* CK_* */
	int op;			/* CK_PUNCT: the char, or OP2() */
	const char *s;		/* CK_ID: the name */
	int64_t val;		/* CK_NUM, CK_CHR */
	int line, col;
};

struct cparse {
	struct ctypes *cs;
	struct diag *d;
	struct ctok *t;
	int n, i;
	int depth;		/* struct/union/enum bodies open */
	bool empty_dim;		/* a "[]" was seen: D_DECL_ARRNULL for vars */
	bool userland;		/* the specifiers said "userland" */
};

_Noreturn static void syntax_error(struct cparse *p)
{
	const struct ctok *t = &p->t[p->i];

	if (t->kind == CK_EOF)
		diag_fail(p->d, t->line, t->col, "D_SYNTAX",
			  "syntax error near end of input");
	diag_fail(p->d, t->line, t->col, "D_SYNTAX", "syntax error");
}

static int char_escape(const char **sp)
{
	static const char from[] = "ntrabfv0\\'\"?", to[] = "\n\t\r\a\b\f\v\0\\'\"?";
	const char *s = *sp;
	int v = 0;

	if (*s != '\\') {
		*sp = s + 1;
		return (unsigned char)*s;
	}
	s++;
	if (*s == 'x') {
		*sp = s + 1;
		return (int)strtol(s + 1, (char **)sp, 16);
	}
	if (*s >= '0' && *s <= '7') {
		for (int k = 0; k < 3 && *s >= '0' && *s <= '7'; k++)
			v = v * 8 + (*s++ - '0');
		*sp = s;
		return v;
	}
	const char *e = strchr(from, *s);
	*sp = s + 1;
	return e ? to[e - from] : (unsigned char)*s;
}

static const int two_char_ops[] = {
	OP2('<', '<'), OP2('>', '>'), OP2('<', '='), OP2('>', '='),
	OP2('=', '='), OP2('!', '='), OP2('&', '&'), OP2('|', '|'),
	OP2('-', '>'),
};

/* Tokenize text; line/col count from the declaration's position. */
static void tokenize(struct cparse *p, const char *text, int line, int col)
{
	int cap = 0, col0 = col > 0 ? col - 1 : 0;	/* first line's indent */
	const char *s = text, *bol = text;

	for (;;) {
		while (*s && (isspace((unsigned char)*s) || (s[0] == '/' &&
		       (s[1] == '*' || s[1] == '/')))) {
			if (*s == '\n') {
				line++;
				bol = s + 1;
				col0 = 0;
			}
			if (s[0] == '/' && s[1] == '*') {
				const char *e = strstr(s + 2, "*/");
				for (s += 2; *s && s != e; s++)
					if (*s == '\n') {
						line++;
						bol = s + 1;
						col0 = 0;
					}
				s += *s ? 2 : 0;
			} else if (s[0] == '/') {
				s += strcspn(s, "\n");
			} else {
				s++;
			}
		}
		struct ctok *t = ARENA_PUSH(p->cs->a, p->t, p->n, cap);

		t->line = line;
		t->col = col0 + (int)(s - bol) + 1;
		if (!*s) {
			t->kind = CK_EOF;
			return;
		}
		if (isalpha((unsigned char)*s) || *s == '_' || *s == '`') {
			size_t len = strspn(s, "abcdefghijklmnopqrstuvwxyz"
					    "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_`");
			t->kind = CK_ID;
			t->s = arena_strndup(p->cs->a, s, len);
			s += len;
		} else if (isdigit((unsigned char)*s)) {
			t->kind = CK_NUM;
			t->val = (int64_t)strtoull(s, (char **)&s, 0);
			s += strspn(s, "uUlL");
		} else if (*s == '\'') {
			s++;
			t->kind = CK_CHR;
			while (*s && *s != '\'')
				t->val = (int64_t)((uint64_t)t->val << 8 |
						   (uint8_t)char_escape(&s));
			s += *s ? 1 : 0;
		} else if (*s == '"') {
			for (s++; *s && *s != '"'; s += s[0] == '\\' && s[1] ? 2 : 1)
				;
			s += *s ? 1 : 0;
			t->kind = CK_STR;
		} else {
			t->kind = CK_PUNCT;
			t->op = (unsigned char)*s++;
			for (size_t k = 0; k < sizeof(two_char_ops) / sizeof(int); k++)
				if (two_char_ops[k] == OP2(t->op, (unsigned char)*s)) {
					t->op = two_char_ops[k];
					s++;
					break;
				}
		}
	}
}

static const struct ctok *peek(const struct cparse *p)
{
	return &p->t[p->i];
}

static bool is_op(const struct cparse *p, int op)
{
	return peek(p)->kind == CK_PUNCT && peek(p)->op == op;
}

static bool is_word(const struct cparse *p, const char *w)
{
	return peek(p)->kind == CK_ID && strcmp(peek(p)->s, w) == 0;
}

static bool accept(struct cparse *p, int op)
{
	if (!is_op(p, op))
		return false;
	p->i++;
	return true;
}

static void expect(struct cparse *p, int op)
{
	if (!accept(p, op))
		syntax_error(p);
}

/* Skip a balanced (...) or [...] group starting at the current token. */
static void skip_group(struct cparse *p)
{
	int depth = 0;

	do {
		if (peek(p)->kind == CK_EOF)
			syntax_error(p);
		if (is_op(p, '(') || is_op(p, '['))
			depth++;
		else if (is_op(p, ')') || is_op(p, ']'))
			depth--;
		p->i++;
	} while (depth > 0);
}

/* "D`foo" -> "foo" in scope D; "vmlinux`foo" -> kernel. */
static const char *unscope(const char *name, enum cscope *scope)
{
	const char *tick = strrchr(name, '`');

	*scope = SCOPE_ANY;
	if (!tick)
		return name;
	if (tick == name)
		*scope = SCOPE_KERNEL;	/* `foo: the kernel's symbol */
	else if ((tick - name == 1 && (name[0] == 'D' || name[0] == 'C')))
		*scope = SCOPE_D;
	else
		*scope = SCOPE_KERNEL;
	return tick + 1;
}

/* ---- declarations: forward ---- */

static bool starts_type(struct cparse *p);
static bool starts_type_at(struct cparse *p, int i);
static struct dtype type_name(struct cparse *p);

/* ---- constant expressions ---- */

struct cval {
	int64_t v;
	bool is_int;		/* false: a string or something not constant */
};

/* Binary operators by precedence, loosest first (C's table). */
static const struct binop {
	int op;
	int prec;
} binops[] = {
	{ OP2('|', '|'), 1 }, { OP2('&', '&'), 2 }, { '|', 3 }, { '^', 4 },
	{ '&', 5 }, { OP2('=', '='), 6 }, { OP2('!', '='), 6 },
	{ '<', 7 }, { '>', 7 }, { OP2('<', '='), 7 }, { OP2('>', '='), 7 },
	{ OP2('<', '<'), 8 }, { OP2('>', '>'), 8 }, { '+', 9 }, { '-', 9 },
	{ '*', 10 }, { '/', 10 }, { '%', 10 },
};

static int binop_prec(const struct cparse *p)
{
	if (peek(p)->kind != CK_PUNCT)
		return 0;
	for (size_t k = 0; k < sizeof(binops) / sizeof(*binops); k++)
		if (binops[k].op == peek(p)->op)
			return binops[k].prec;
	return 0;
}

/* Arithmetic wraps as on the machine: computed unsigned. */
static int64_t apply(struct cparse *p, int op, int64_t a, int64_t b,
		     const struct ctok *at)
{
	uint64_t ua = (uint64_t)a, ub = (uint64_t)b;

	switch (op) {
	case '+': return (int64_t)(ua + ub);
	case '-': return (int64_t)(ua - ub);
	case '*': return (int64_t)(ua * ub);
	case '/':
	case '%':
		if (b == 0)
			diag_fail(p->d, at->line, at->col, "D_DIV_ZERO",
				  "expression contains division by zero");
		if (a == INT64_MIN && b == -1)
			return op == '/' ? a : 0;
		return op == '/' ? a / b : a % b;
	case OP2('<', '<'): return (int64_t)(ua << (ub & 63));
	case OP2('>', '>'): return a >> (ub & 63);
	case '<': return a < b;
	case '>': return a > b;
	case OP2('<', '='): return a <= b;
	case OP2('>', '='): return a >= b;
	case OP2('=', '='): return a == b;
	case OP2('!', '='): return a != b;
	case '&': return a & b;
	case '^': return a ^ b;
	case '|': return a | b;
	case OP2('&', '&'): return a && b;
	default: return a || b;	/* || */
	}
}

static struct cval conditional(struct cparse *p);

/* primary = number | char | string | enumerator | "(" conditional ")" */
static struct cval primary(struct cparse *p)
{
	const struct ctok *t = peek(p);
	struct cval r = { 0, true };

	if (t->kind == CK_NUM || t->kind == CK_CHR) {
		r.v = t->val;
	} else if (t->kind == CK_STR) {
		r.is_int = false;
	} else if (t->kind == CK_ID) {
		if (!ctypes_enum_value(p->cs, t->s, &r.v, NULL))
			diag_fail(p->d, t->line, t->col, "D_IDENT_UNDEF",
				  "failed to resolve %s: Unknown variable name",
				  t->s);
	} else if (accept(p, '(')) {
		r = conditional(p);
		expect(p, ')');
		return r;
	} else {
		syntax_error(p);
	}
	p->i++;
	return r;
}

/* unary = ("-" | "+" | "~" | "!") unary | "sizeof" "(" type-name ")"
 *       | "(" type-name ")" unary | primary */
static struct cval unary(struct cparse *p)
{
	struct cval r;
	int op = peek(p)->op;

	if (peek(p)->kind == CK_PUNCT && op < 256 && strchr("-+~!", op)) {
		p->i++;
		r = unary(p);
		r.v = op == '-' ? (int64_t)(0 - (uint64_t)r.v) :
		      op == '~' ? ~r.v : op == '!' ? !r.v : r.v;
		return r;
	}
	if (is_word(p, "sizeof")) {
		p->i++;
		expect(p, '(');
		r = (struct cval){ type_name(p).size, true };
		expect(p, ')');
		return r;
	}
	if (is_op(p, '(') && starts_type_at(p, p->i + 1)) {
		p->i++;
		struct dtype t = type_name(p);
		expect(p, ')');
		r = unary(p);
		if (t.kind == T_INT && t.size < 8) {
			uint64_t m = (1ull << (t.size * 8)) - 1, u = (uint64_t)r.v & m;
			bool neg = t.is_signed && (u >> (t.size * 8 - 1));
			r.v = neg ? (int64_t)(u | ~m) : (int64_t)u;
		}
		return r;
	}
	return primary(p);
}

/* binary = unary (op binary-of-higher-precedence)* */
static struct cval binary(struct cparse *p, int min_prec)
{
	struct cval l = unary(p);

	for (int prec; (prec = binop_prec(p)) >= min_prec && prec;) {
		const struct ctok *at = peek(p);
		p->i++;
		struct cval r = binary(p, prec + 1);
		l.v = apply(p, at->op, l.v, r.v, at);
		l.is_int = l.is_int && r.is_int;
	}
	return l;
}

/* conditional = binary ["?" conditional ":" conditional] */
static struct cval conditional(struct cparse *p)
{
	struct cval c = binary(p, 1);

	if (!accept(p, '?'))
		return c;
	struct cval a = conditional(p);
	expect(p, ':');
	struct cval b = conditional(p);
	return c.v ? a : b;
}

/* ---- declaration specifiers ---- */

enum { A_SIGNED = 1, A_UNSIGNED = 2, A_SHORT = 4, A_LONG = 8, A_LONGLONG = 16 };

/* What the specifiers said so far (DTrace's dt_decl_t). */
struct specs {
	unsigned attrs;		/* A_* */
	int kind;		/* S_* */
	const char *name;	/* "int", "char", a typedef name... */
	struct dtype type;	/* S_SOU, S_ENUM, S_TYPEDEF: the type */
	const struct ctok *at;
};

enum { S_NONE, S_INT, S_FLOAT, S_VOID, S_SOU, S_ENUM, S_TYPEDEF };

static void check_specs(struct cparse *p, const struct specs *sp)
{
	const struct ctok *t = sp->at;
	bool integer = sp->kind == S_INT || sp->kind == S_NONE;

	if (sp->name && !strcmp(sp->name, "char") &&
	    (sp->attrs & (A_SHORT | A_LONG | A_LONGLONG)))
		diag_fail(p->d, t->line, t->col, "D_DECL_CHARATTR",
			  "invalid type declaration: short and long may not "
			  "be used with char type");
	if (sp->kind == S_VOID && sp->attrs)
		diag_fail(p->d, t->line, t->col, "D_DECL_VOIDATTR",
			  "invalid type declaration: attributes may not be "
			  "used with void type");
	if (!integer && (sp->attrs & (A_SIGNED | A_UNSIGNED)))
		diag_fail(p->d, t->line, t->col, "D_DECL_SIGNINT",
			  "invalid type declaration: signed and unsigned may "
			  "only be used with integer type");
	if (!integer && sp->kind != S_FLOAT &&
	    (sp->attrs & (A_LONG | A_LONGLONG)))
		diag_fail(p->d, t->line, t->col, "D_DECL_LONGINT",
			  "invalid type declaration: long and long long may "
			  "only be used with integer or floating-point type");
}

static void add_attr(struct cparse *p, struct specs *sp, unsigned attr)
{
	static const struct { unsigned attr, clash; const char *msg; } rules[] = {
		{ A_LONG, A_LONGLONG, "the attribute 'long' may only be used "
				      "at most twice in a declaration" },
		{ A_SHORT, A_SHORT, "the attribute 'short' may only be used "
				    "at most once in a declaration" },
		{ A_SIGNED, A_SIGNED, "the attribute 'signed' may only be "
				      "used at most once in a declaration" },
		{ A_UNSIGNED, A_UNSIGNED, "the attribute 'unsigned' may only "
					  "be used at most once in a "
					  "declaration" },
	};

	for (size_t k = 0; k < sizeof(rules) / sizeof(*rules); k++)
		if (attr == rules[k].attr && (sp->attrs & rules[k].clash))
			diag_fail(p->d, sp->at->line, sp->at->col,
				  "D_DECL_COMBO", "%s", rules[k].msg);
	if (attr == A_LONG && (sp->attrs & A_LONG)) {
		sp->attrs &= ~A_LONG;
		attr = A_LONGLONG;
	}
	sp->attrs |= attr;
	check_specs(p, sp);
}

static void set_spec(struct cparse *p, struct specs *sp, int kind,
		     const char *name)
{
	if (sp->name || sp->kind != S_NONE)
		diag_fail(p->d, sp->at->line, sp->at->col, "D_DECL_COMBO",
			  "invalid type combination");
	sp->kind = kind;
	sp->name = name;
	check_specs(p, sp);
}

static struct dtype sou_specifier(struct cparse *p, enum ctype_kind kind);

static bool is_typedef_name(struct cparse *p, const char *name)
{
	enum cscope scope;
	struct dtype t;

	name = unscope(name, &scope);
	return ctype_lookup_name(p->cs, name, scope, &t);
}

static bool is_d_typedef_name(struct cparse *p, const char *name)
{
	enum cscope scope;
	struct dtype t;

	name = unscope(name, &scope);
	return scope != SCOPE_KERNEL &&
	       ctype_lookup_name(p->cs, name, SCOPE_D, &t);
}

/* "struct", "union", "enum", or "mod`struct"...: the kind, or -1. */
static int tag_keyword(const struct ctok *t)
{
	const char *w = t->kind == CK_ID ? strrchr(t->s, '`') : NULL;

	w = w ? w + 1 : t->kind == CK_ID ? t->s : "";
	return !strcmp(w, "struct") ? CT_STRUCT : !strcmp(w, "union") ? CT_UNION :
	       !strcmp(w, "enum") ? CT_ENUM : -1;
}

static bool starts_type(struct cparse *p)
{
	static const char *const words[] = {
		"const", "volatile", "restrict", "signed", "unsigned", "short",
		"long", "char", "int", "void", "float", "double", "string", NULL,
	};
	const struct ctok *t = peek(p);

	if (t->kind != CK_ID)
		return false;
	for (int k = 0; words[k]; k++)
		if (!strcmp(t->s, words[k]))
			return true;
	return tag_keyword(t) >= 0 || is_typedef_name(p, t->s);
}

static bool starts_type_at(struct cparse *p, int i)
{
	int saved = p->i;
	bool yes;

	p->i = i < p->n ? i : p->n - 1;
	yes = starts_type(p);
	p->i = saved;
	return yes;
}

/* One specifier word, or false at the end of the specifiers. */
static bool specifier(struct cparse *p, struct specs *sp)
{
	static const struct { const char *word; unsigned attr; int kind; } words[] = {
		{ "signed", A_SIGNED, 0 }, { "unsigned", A_UNSIGNED, 0 },
		{ "short", A_SHORT, 0 }, { "long", A_LONG, 0 },
		{ "char", 0, S_INT }, { "int", 0, S_INT },
		{ "float", 0, S_FLOAT }, { "double", 0, S_FLOAT },
		{ "void", 0, S_VOID }, { "string", 0, S_TYPEDEF },
		{ "const", 0, S_NONE }, { "volatile", 0, S_NONE },
		{ "restrict", 0, S_NONE }, { "userland", 0, S_NONE },
	};
	const struct ctok *t = peek(p);

	if (t->kind != CK_ID)
		return false;
	for (size_t k = 0; k < sizeof(words) / sizeof(*words); k++) {
		if (strcmp(t->s, words[k].word) != 0)
			continue;
		sp->at = t;
		p->i++;
		p->userland |= strcmp(t->s, "userland") == 0;
		if (words[k].attr)
			add_attr(p, sp, words[k].attr);
		else if (words[k].kind != S_NONE)
			set_spec(p, sp, words[k].kind, words[k].word);
		return true;
	}
	int kind = tag_keyword(t);

	sp->at = t;
	if (kind >= 0) {
		/* DTrace checks "unsigned struct s" once it has read the
		 * token after the tag, the "{" of a definition */
		sp->at = &p->t[p->i + (t[1].kind == CK_ID ? 2 : 1)];
		set_spec(p, sp, kind == CT_ENUM ? S_ENUM : S_SOU, t->s);
		sp->type = sou_specifier(p, (enum ctype_kind)kind);
		return true;
	}
	/* a name first is a type, known or not (D_UNKNOWN then); after
	 * "unsigned" it may be the declarator's.  Only the script's and D's
	 * typedefs can follow "unsigned"/"long" in a valid program, and
	 * looking no further keeps member declarations like "long x;" from
	 * loading the kernel's BTF. */
	if (sp->name || sp->kind != S_NONE ||
	    (sp->attrs && !is_d_typedef_name(p, t->s)))
		return false;
	p->i++;
	set_spec(p, sp, S_TYPEDEF, t->s);
	return true;
}

/* The type the specifiers name: the C name DTrace builds from them
 * ("short long " for "long short", which no type has). */
static struct dtype specs_type(struct cparse *p, struct specs *sp)
{
	static const struct { unsigned attr; const char *word; } order[] = {
		{ A_SIGNED, "signed " }, { A_UNSIGNED, "unsigned " },
		{ A_SHORT, "short " }, { A_LONG, "long " },
		{ A_LONGLONG, "long long " },
	};
	enum cscope scope;
	struct dtype t;

	if (sp->kind == S_SOU || sp->kind == S_ENUM)
		return sp->type;
	if (sp->kind == S_TYPEDEF || sp->kind == S_VOID) {
		const char *name = unscope(sp->name, &scope);
		if (ctype_lookup_name(p->cs, name, scope, &t))
			return t;
	}
	char name[64] = "";

	for (size_t k = 0; k < sizeof(order) / sizeof(*order); k++)
		if (sp->attrs & order[k].attr)
			strcat(name, order[k].word);
	if (!sp->attrs && !sp->name)
		strcat(name, "int");
	if (sp->name && (sp->kind != S_INT ||
			 !(sp->attrs & (A_SHORT | A_LONG | A_LONGLONG))))
		strncat(name, sp->name, sizeof(name) - strlen(name) - 1);
	char *trimmed = arena_strdup(p->cs->a, name);

	for (size_t n = strlen(trimmed); n && trimmed[n - 1] == ' ';)
		trimmed[--n] = '\0';
	if (ctype_lookup_name(p->cs, trimmed, SCOPE_D, &t))
		return t;
	diag_fail(p->d, sp->at->line, sp->at->col, "D_UNKNOWN",
		  "failed to resolve type %s: Unknown type name", name);
}

/* decl-specs = (qualifier | attribute | type-specifier)+ */
static struct dtype decl_specs(struct cparse *p)
{
	struct specs sp = { .at = peek(p) };

	while (specifier(p, &sp))
		;
	if (sp.kind == S_NONE) {
		if (!sp.attrs)
			syntax_error(p);
		sp.kind = S_INT;	/* "unsigned", "long": int implied */
		check_specs(p, &sp);
	}
	return specs_type(p, &sp);
}

/* ---- declarators ---- */

static struct dtype declarator(struct cparse *p, struct dtype base,
			       const char **name);

/* array-dim = "[" [conditional] "]" */
static uint32_t array_dim(struct cparse *p)
{
	const struct ctok *at = peek(p);

	expect(p, '[');
	if (accept(p, ']')) {
		p->empty_dim = true;
		return 0;
	}
	if (starts_type(p))	/* a tuple signature: not a C type */
		syntax_error(p);
	struct cval v = conditional(p);

	if (!v.is_int || v.v <= 0)
		diag_fail(p->d, at->line, at->col, "D_DECL_ARRSUB",
			  "positive integral constant expression or tuple "
			  "signature expected as array declaration subscript");
	if (v.v > UINT_MAX)
		diag_fail(p->d, at->line, at->col, "D_DECL_ARRBIG",
			  "array dimension too big");
	expect(p, ']');
	return (uint32_t)v.v;
}

/* suffixes = ("[" dim "]")* | "(" params ")" -- int a[3][5] is an array
 * of 3 arrays of 5 */
static struct dtype suffixes(struct cparse *p, struct dtype base)
{
	if (is_op(p, '[')) {
		const struct ctok *at = peek(p);
		uint32_t n = array_dim(p);
		struct dtype elem = suffixes(p, base);

		if (elem.kind == T_VOID)
			diag_fail(p->d, at->line, at->col, "D_DECL_VOIDOBJ",
				  "cannot declare array of void");
		return ctype_array_of(p->cs, &elem, n);
	}
	if (is_op(p, '(')) {
		skip_group(p);	/* parameters: function types are opaque */
		return ctype_func_returning(p->cs, &base);
	}
	return base;
}

static void qualifiers(struct cparse *p)
{
	while (is_word(p, "const") || is_word(p, "volatile") ||
	       is_word(p, "restrict"))
		p->i++;
}

/*
 * declarator = "*"* ("(" declarator ")" | [ident]) suffixes
 * A "(" starts a nested declarator if "*", "(" or "[" or a name follows,
 * otherwise it is a parameter list.  The nested declarator applies to the
 * type its suffixes make, so it is parsed after them (chibicc's way).
 * name is NULL for an abstract declarator (type names).
 */
static struct dtype declarator(struct cparse *p, struct dtype base,
			       const char **name)
{
	while (accept(p, '*')) {
		base = ctype_ptr_to(p->cs, &base);
		qualifiers(p);
	}
	const struct ctok *next = &p->t[p->i + (is_op(p, '(') ? 1 : 0)];

	if (is_op(p, '(') && ((next->kind == CK_PUNCT && next->op < 256 &&
			       strchr("*([", next->op)) ||
			      (name && next->kind == CK_ID &&
			       !starts_type_at(p, p->i + 1)))) {
		int inner = p->i + 1;

		skip_group(p);
		base = suffixes(p, base);
		int end = p->i;

		p->i = inner;
		base = declarator(p, base, name);
		expect(p, ')');
		p->i = end;
		return base;
	}
	if (name && peek(p)->kind == CK_ID) {
		*name = peek(p)->s;
		p->i++;
	}
	return suffixes(p, base);
}

/* type-name = decl-specs abstract-declarator */
/* "userland int *": a pointer into the probe's process memory (dtrace-
 * utils' userland qualifier), read there rather than in the kernel's */
static struct dtype type_name(struct cparse *p)
{
	bool outer = p->userland;
	struct dtype t;

	p->userland = false;
	t = declarator(p, decl_specs(p), NULL);
	if (p->userland && t.kind == T_PTR)
		t.user = true;
	p->userland = outer;
	return t;
}

/* ---- struct, union and enum bodies ---- */

static void add_member(struct cparse *p, struct ctype *c, const char *name,
		       struct dtype t, const struct ctok *width_at,
		       struct cval width, const struct ctok *end)
{
	const char *idname = name ? name : "(anon)";
	const struct ctype *tc = t.ct;
	bool sou = tc && (tc->kind == CT_STRUCT || tc->kind == CT_UNION ||
			  tc->kind == CT_ENUM);

	if (sou && !tc->complete)
		diag_fail(p->d, end->line, end->col, "D_DECL_INCOMPLETE",
			  "incomplete struct/union/enum %s: %s",
			  dtype_name(&t), idname);
	if (t.size == 0 && !(c->kind == CT_STRUCT && t.kind == T_ARRAY))
		diag_fail(p->d, end->line, end->col, "D_DECL_VOIDOBJ",
			  "cannot have void member: %s", idname);
	uint32_t bits = 0;

	if (width_at) {
		if (!name && width.is_int && width.v == 0)
			return;	/* "int : 0": no more packing -- ignored */
		if (!width.is_int || width.v <= 0)
			diag_fail(p->d, end->line, end->col, "D_DECL_BFCONST",
				  "positive integral constant expression "
				  "expected as bit-field size");
		if (t.kind != T_INT || (tc && tc->kind == CT_ENUM))
			diag_fail(p->d, end->line, end->col, "D_DECL_BFTYPE",
				  "invalid type for bit-field: %s", idname);
		if (width.v > t.size * 8)
			diag_fail(p->d, end->line, end->col, "D_DECL_BFSIZE",
				  "bit-field too big for type: %s", idname);
		bits = (uint32_t)width.v;
	}
	for (int k = 0; name && k < c->nmembers; k++)
		if (!strcmp(c->members[k].name, name))
			diag_fail(p->d, end->line, end->col, "D_UNKNOWN",
				  "failed to define member '%s': Duplicate "
				  "member or variable name", name);

	/* DTrace's layout: a bit-field is an integer of clp2(bytes) */
	uint32_t msize = t.size, malign = dtype_align(&t);

	if (bits) {
		for (msize = 1; msize * 8 < bits; msize *= 2)
			;
		malign = msize;
	}
	uint32_t off = 0;

	if (c->kind == CT_STRUCT && c->nmembers) {
		const struct cmember *last = &c->members[c->nmembers - 1];
		uint64_t end_bit = (uint64_t)last->off * 8 + last->bit_off +
				   (last->bit_width ? last->bit_width :
						      (uint64_t)last->type.size * 8);
		off = (uint32_t)((end_bit + 7) / 8);
		off = (off + malign - 1) / malign * malign;
	}
	int cap = c->nmembers;	/* members grow one at a time */
	struct cmember *m = ARENA_PUSH(p->cs->a, c->members, c->nmembers, cap);

	m->name = name ? name : "";
	m->off = off;
	m->bit_width = (uint8_t)bits;
	m->type = t;
	if (c->kind == CT_STRUCT)
		c->size = off + msize;
	else if (msize > c->size)
		c->size = msize;
	if (malign > c->align)
		c->align = malign;
}

/* member = decl-specs member-declarator ("," member-declarator)* ";"
 * member-declarator = declarator [":" conditional] | ":" conditional */
static void member_declaration(struct cparse *p, struct ctype *c)
{
	struct dtype base = decl_specs(p);

	if (accept(p, ';'))	/* a nested definition alone */
		return;
	for (;;) {
		const char *name = NULL;
		const struct ctok *width_at = NULL;
		struct cval width = { 0, true };
		struct dtype t = is_op(p, ':') ? base : declarator(p, base, &name);

		if (is_op(p, ':')) {
			width_at = peek(p);
			p->i++;
			width = conditional(p);
		}
		if (!name && !width_at)
			diag_fail(p->d, peek(p)->line, peek(p)->col,
				  "D_DECL_MNAME",
				  "member declaration requires a name");
		add_member(p, c, name, t, width_at, width, peek(p));
		if (!accept(p, ','))
			break;
	}
	expect(p, ';');
}

/* enumerator = ident ["=" conditional] */
static void enumerator(struct cparse *p, struct ctype *c, int64_t *next)
{
	const struct ctok *id = peek(p);
	struct cval v = { *next, true };

	if (id->kind != CK_ID)
		syntax_error(p);
	p->i++;
	if (accept(p, '='))
		v = conditional(p);
	const struct ctok *end = peek(p);

	if (!v.is_int)
		diag_fail(p->d, end->line, end->col, "D_DECL_ENCONST",
			  "enumerator '%s' must be assigned to an integral "
			  "constant expression", id->s);
	if (v.v > INT_MAX || v.v < INT_MIN)
		diag_fail(p->d, end->line, end->col, "D_DECL_ENOFLOW",
			  "enumerator '%s' value overflows INT_MAX (%d)",
			  id->s, INT_MAX);
	if (strmap_get(&p->cs->enums, id->s) ||
	    (p->cs->taken && p->cs->taken(p->cs->taken_arg, id->s)))
		diag_fail(p->d, end->line, end->col, "D_DECL_IDRED",
			  "identifier redeclared: %s", id->s);
	int cap = c->nenums;
	struct cenumerator *e = ARENA_PUSH(p->cs->a, c->enums, c->nenums, cap);
	struct enum_ref *r = arena_alloc(p->cs->a, sizeof(*r));

	e->name = id->s;
	e->value = v.v;
	r->value = v.v;
	r->ct = c;
	strmap_put(p->cs->a, &p->cs->enums, id->s, r);
	*next = v.v + 1;
}

static void sou_body(struct cparse *p, struct ctype *c)
{
	int64_t next = 0;

	p->depth++;
	expect(p, '{');
	while (!accept(p, '}')) {
		if (c->kind != CT_ENUM) {
			member_declaration(p, c);
			continue;
		}
		enumerator(p, c, &next);
		if (!is_op(p, '}'))
			expect(p, ',');
	}
	p->depth--;
	if (c->kind == CT_ENUM) {
		c->size = 4;
		c->align = 4;
		c->elem.is_signed = true;
	}
	c->complete = true;
	ctype_completed(p->cs, c);
}

static const char *const tag_words[] = {
	[CT_STRUCT] = "struct", [CT_UNION] = "union", [CT_ENUM] = "enum",
};

static struct ctype *new_tagged(struct cparse *p, enum ctype_kind kind,
				const char *tag)
{
	struct ctype *c = ctype_new(p->cs, kind);

	c->tag = tag;
	c->name = *tag ? arena_printf(p->cs->a, "%s %s", tag_words[kind], tag) :
			 tag_words[kind];
	if (*tag)
		strmap_put(p->cs->a, &p->cs->tags, c->name, c);
	if (kind == CT_ENUM)	/* forward enums are ints until defined */
		c->elem.is_signed = true;
	return c;
}

/*
 * sou-specifier = ("struct" | "union" | "enum") [tag] ["{" body "}"]
 * With a body: define (a forward declaration of the tag is completed in
 * place).  Without: the script's type, the kernel's, or a new forward
 * declaration.  A bare keyword with neither names the last anonymous
 * definition at top level: the parser gives "struct { ... } x;" to sema
 * as the definition, then x of type "struct".
 */
static struct dtype sou_specifier(struct cparse *p, enum ctype_kind kind)
{
	const struct ctok *kw = peek(p);
	enum cscope scope = SCOPE_ANY;
	const char *tag = "";
	const struct ctype *c;

	p->i++;
	if (strchr(kw->s, '`'))
		unscope(kw->s, &scope);
	if (peek(p)->kind == CK_ID) {
		enum cscope s2;
		tag = unscope(peek(p)->s, &s2);
		scope = s2 != SCOPE_ANY ? s2 : scope;
		p->i++;
	}
	if (is_op(p, '{')) {
		const char *key = arena_printf(p->cs->a, "%s %s", tag_words[kind], tag);
		struct ctype *def;

		if (*tag)
			ctype_undefer(p->cs, key);
		def = *tag ? strmap_get(&p->cs->tags, key) : NULL;

		if (def && def->complete)
			diag_fail(p->d, peek(p)->line, peek(p)->col,
				  "D_DECL_TYPERED", "type redeclared: %s",
				  def->name);
		if (!def)
			def = new_tagged(p, kind, tag);
		sou_body(p, def);
		if (!*tag && p->depth == 0)
			p->cs->last_anon[kind - CT_STRUCT] = def;
		return ctype_dtype(def);
	}
	if (!*tag) {
		c = p->cs->last_anon[kind - CT_STRUCT];
		if (!c)
			syntax_error(p);
		return ctype_dtype(c);
	}
	c = ctype_lookup_tag(p->cs, kind, tag, scope);
	return ctype_dtype(c ? c : new_tagged(p, kind, tag));
}

/* ---- entry points ---- */

static void parse_init(struct cparse *p, struct ctypes *cs, struct diag *d,
		       const char *text, int line, int col)
{
	memset(p, 0, sizeof(*p));
	p->cs = cs;
	p->d = d;
	tokenize(p, text, line, col);
}

void ctypes_declare(struct ctypes *ct, const struct top_decl *td,
		    struct diag *d)
{
	struct cparse p;
	struct dtype t;

	if (td->kind != TOP_STRUCT && td->kind != TOP_UNION &&
	    td->kind != TOP_ENUM && td->kind != TOP_TYPEDEF)
		return;
	parse_init(&p, ct, d, td->type->text, td->type->line, td->type->col);
	t = type_name(&p);
	if (peek(&p)->kind != CK_EOF)
		syntax_error(&p);
	if (td->kind != TOP_TYPEDEF)
		return;
	ctype_undefer(ct, td->name);
	/* a D variable, function or inline holds the name (dt_decl's
	 * DT_DC_TYPEDEF) */
	if ((ct->taken && ct->taken(ct->taken_arg, td->name)) ||
	    strmap_get(&ct->enums, td->name))
		diag_fail(d, td->line, td->col, "D_DECL_IDRED",
			  "global variable identifier redeclared: %s",
			  td->name);
	if (strmap_get(&ct->typedefs, td->name))
		diag_fail(d, td->line, td->col, "D_DECL_IDRED",
			  "identifier redeclared: %s", td->name);
	struct dtype *alias = arena_alloc(ct->a, sizeof(*alias));

	*alias = t;
	alias->name = td->name;
	strmap_put(ct->a, &ct->typedefs, td->name, alias);
}

void ctypes_resolve_decl(struct ctypes *ct, const struct decl_type *dt,
			 const char *ident, struct diag *d, struct dtype *out)
{
	struct cparse p;

	parse_init(&p, ct, d, dt->text, dt->line, dt->col);
	if (ident && peek(&p)->kind == CK_EOF) {	/* "extern x;": int */
		ctype_lookup_name(ct, "int", SCOPE_D, out);
		return;
	}
	*out = type_name(&p);
	if (peek(&p)->kind != CK_EOF)
		syntax_error(&p);
	if (ident && p.empty_dim && out->kind == T_ARRAY)
		diag_fail(d, dt->line, dt->col, "D_DECL_ARRNULL",
			  "array declaration requires array dimension or "
			  "tuple signature: %s", ident);
}

bool ctypes_resolve(struct ctypes *ct, const char *text, struct dtype *out)
{
	struct diag d = { 0 };
	jmp_buf env;
	struct decl_type dt = { .text = text, .line = 1, .col = 1 };

	d.env = &env;
	if (setjmp(env))
		return false;
	ctypes_resolve_decl(ct, &dt, NULL, &d, out);
	return true;
}
