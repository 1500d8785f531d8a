/*
 * lex.c -- the D tokenizer.
 *
 * A hand-written scanner that follows DTrace's dt_lex.l closely enough
 * that scripts fail with the same messages at the same lines:
 *
 *  - Two modes (lex.h).  In LEX_TOP a run of probe-description characters
 *    is one TK_PSPEC token, unless it is a declaration keyword or a type
 *    name, which start a declaration.  In LEX_EXPR the C operators exist.
 *  - A "/" in LEX_EXPR closes a predicate when the next non-blank
 *    character is end of input, ";", "{" or "/"; otherwise it divides.
 *  - Parentheses, brackets and braces are counted as they are read, so an
 *    unbalanced ")" is "extra ) in input stream" before the parser sees it.
 *  - A line whose first non-blank character is "#" is a control line:
 *    #pragma, #error, #line and cpp's "# N file" markers, or #! (ignored).
 *  - $N, $$N and $name expand to tokens here, with the source text kept for
 *    messages ("syntax error near "$pid"").
 *
 * Positions are 1-based lines and columns of the token's first character;
 * an error at end of input is on the line after the last newline.
 */
#include "front/lex.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "front/parse.h"

static const char *const keyword_names[KW_COUNT] = {	/* ORDER KW */
	"auto", "break", "case", "char", "const", "continue", "counter",
	"default", "do", "double", "else", "enum", "extern", "float",
	"for", "goto", "if", "import", "inline", "int", "long",
	"offsetof", "probe", "provider", "register", "restrict",
	"return", "self", "short", "signed", "sizeof", "static",
	"string", "stringof", "struct", "switch", "this", "translator",
	"typedef", "union", "unsigned", "userland", "void", "volatile",
	"while", "xlate",
};

/* The keywords that begin a declaration in the outer scope (dt_lex.l's
 * <S2> rules); any other word there is a probe description. */
static const unsigned char top_keyword[KW_COUNT] = {
	[KW_AUTO] = 1, [KW_CHAR] = 1, [KW_CONST] = 1, [KW_COUNTER] = 1,
	[KW_DOUBLE] = 1, [KW_ENUM] = 1, [KW_EXTERN] = 1, [KW_FLOAT] = 1,
	[KW_IMPORT] = 1, [KW_INLINE] = 1, [KW_INT] = 1, [KW_LONG] = 1,
	[KW_PROVIDER] = 1, [KW_REGISTER] = 1, [KW_RESTRICT] = 1,
	[KW_SELF] = 1, [KW_SHORT] = 1, [KW_SIGNED] = 1, [KW_STATIC] = 1,
	[KW_STRING] = 1, [KW_STRUCT] = 1, [KW_THIS] = 1, [KW_TRANSLATOR] = 1,
	[KW_TYPEDEF] = 1, [KW_UNION] = 1, [KW_UNSIGNED] = 1, [KW_VOID] = 1,
	[KW_VOLATILE] = 1,
};

/* Multi-character operators, longest first so that the first match is
 * the longest.  The single characters are handled after this table. */
static const struct {
	const char *text;
	int op;
} punct_table[] = {
	{ "<<=", P_SHL_EQ }, { ">>=", P_SHR_EQ }, { "...", P_ELLIPSIS },
	{ "&&", OP_LAND }, { "||", OP_LOR }, { "^^", OP_LXOR },
	{ "==", OP_EQ }, { "!=", OP_NE }, { "<=", OP_LE }, { ">=", OP_GE },
	{ "<<", OP_SHL }, { ">>", OP_SHR }, { "->", OP_ARROW },
	{ "++", P_INC }, { "--", P_DEC }, { "+=", P_ADD_EQ },
	{ "-=", P_SUB_EQ }, { "*=", P_MUL_EQ }, { "/=", P_DIV_EQ },
	{ "%=", P_MOD_EQ }, { "&=", P_AND_EQ }, { "|=", P_OR_EQ },
	{ "^=", P_XOR_EQ },
};

static const char single_punct[] = "()[]{},;?:.=+-*/%&|^~!<>";

const char *lex_keyword_name(int kw)
{
	return kw >= 0 && kw < KW_COUNT ? keyword_names[kw] : "?";
}

static int keyword_lookup(const char *s, size_t len)
{
	for (int i = 0; i < KW_COUNT; i++)
		if (strlen(keyword_names[i]) == len &&
		    memcmp(keyword_names[i], s, len) == 0)
			return i;
	return -1;
}

static int col_of(const struct lexer *lx, const char *at)
{
	return (int)(at - lx->line_start) + 1;
}

void lex_init(struct lexer *lx, struct arena *a, struct diag *d,
	      const char *text, const struct parse_opts *o)
{
	memset(lx, 0, sizeof(*lx));
	lx->a = a;
	lx->d = d;
	lx->o = o;
	lx->src = lx->p = lx->line_start = text;
	lx->line = 1;
	if (o && o->argc > 0)
		lx->macro_used = arena_alloc(a, o->argc * sizeof(bool));
}

static void newline(struct lexer *lx)
{
	lx->line++;
	lx->line_start = lx->p;
}

/* Report a syntax error at the current position and stop. */
#define lex_error(lx, ...) \
	diag_fail((lx)->d, (lx)->line, col_of((lx), (lx)->p), "D_SYNTAX", __VA_ARGS__)

/*
 * Escapes, as DTrace's stresc2chr: \a \b \f \n \r \t \v \" \\, octal of
 * up to three digits, \x and the hex digits that follow (none is 0).  Any
 * other escape -- \' and \? too, which C would decode -- keeps its
 * backslash: '\?' is two characters.  The result may contain NULs, so the
 * length is returned.
 */
static size_t decode_escapes(char *out, const char *s, size_t n)
{
	static const char from[] = "abfnrtv\"\\", to[] = "\a\b\f\n\r\t\v\"\\";
	const char *end = s + n;
	char *q = out;

	while (s < end) {
		if (*s != '\\' || s + 1 >= end) {
			*q++ = *s++;
			continue;
		}
		s++;
		const char *m = strchr(from, *s);
		if (m && *s) {
			*q++ = to[m - from];
			s++;
		} else if (*s >= '0' && *s <= '7') {
			int v = 0;
			for (int i = 0; i < 3 && s < end && *s >= '0' && *s <= '7'; i++)
				v = v * 8 + (*s++ - '0');
			*q++ = (char)v;
		} else if (*s == 'x') {
			/* as many digits as follow; the char is the value's
			 * low byte, kept so as the digits come (no overflow) */
			unsigned v = 0;
			for (s++; s < end && isxdigit((unsigned char)*s); s++)
				v = (v << 4 | (unsigned)(isdigit((unsigned char)*s) ? *s - '0' :
					 tolower((unsigned char)*s) - 'a' + 10)) & 0xff;
			*q++ = (char)v;
		} else {
			*q++ = '\\';
			*q++ = *s++;
		}
	}
	*q = '\0';
	return (size_t)(q - out);
}

/* ---- integer constants ---- */

/* The built-in integer types in the order C tries them (C99 6.4.4.1). */
static const struct int_desc {
	const char *name;
	uint32_t size;
	bool is_signed;
	uint64_t limit;
} int_descs[] = {
	{ "int", 4, true, 0x7fffffffULL },
	{ "unsigned int", 4, false, 0xffffffffULL },
	{ "long", 8, true, 0x7fffffffffffffffULL },
	{ "unsigned long", 8, false, 0xffffffffffffffffULL },
	{ "long long", 8, true, 0x7fffffffffffffffULL },
	{ "unsigned long long", 8, false, 0xffffffffffffffffULL },
};

static void set_int_type(struct dtype *t, const struct int_desc *d)
{
	memset(t, 0, sizeof(*t));
	t->kind = T_INT;
	t->size = d->size;
	t->is_signed = d->is_signed;
	t->name = d->name;
}

/*
 * The suffix picks where to start (l: long, ll: long long) and whether only
 * unsigned types may be used (u).  Decimal constants without u skip the
 * unsigned types, as in C; if no signed type holds the value it becomes
 * unsigned long long, as gcc does, rather than an error.
 */
bool lex_int_type(uint64_t value, const char *suffix, bool decimal,
		  struct dtype *t)
{
	bool u = strpbrk(suffix, "uU") != NULL;
	int nl = 0, n = sizeof(int_descs) / sizeof(int_descs[0]);

	for (const char *s = suffix; *s; s++)
		nl += *s == 'l' || *s == 'L';
	for (int i = nl == 0 ? 0 : nl == 1 ? 2 : 4; i < n; i++) {
		const struct int_desc *d = &int_descs[i];

		if ((u && d->is_signed) || (decimal && !u && !d->is_signed))
			continue;
		if (value <= d->limit) {
			set_int_type(t, d);
			return true;
		}
	}
	set_int_type(t, &int_descs[n - 1]);
	return !u || value <= int_descs[n - 1].limit;
}

static bool is_fp_tail(const char *q)
{
	if (*q == '.' || *q == 'f' || *q == 'F')
		return true;
	if (*q == 'e' || *q == 'E') {
		q++;
		if (*q == '+' || *q == '-')
			q++;
		return isdigit((unsigned char)*q);
	}
	return false;
}

/* number = ([0-9]+ | 0[xX][0-9a-fA-F]+) [uU]? [lL]? [lL]? */
static void lex_number(struct lexer *lx, struct token *t)
{
	const char *s = lx->p, *q = s;
	bool hex = q[0] == '0' && (q[1] == 'x' || q[1] == 'X') &&
		   isxdigit((unsigned char)q[2]);

	if (hex)
		for (q += 2; isxdigit((unsigned char)*q); q++)
			;
	else
		while (isdigit((unsigned char)*q))
			q++;
	if (!hex && is_fp_tail(q))
		lex_error(lx, "floating-point constants are not permitted");
	if (*q == 'u' || *q == 'U')
		q++;
	for (int i = 0; i < 2 && (*q == 'l' || *q == 'L'); i++)
		q++;

	char *text = arena_strndup(lx->a, s, q - s), *end;
	errno = 0;
	uint64_t v = strtoull(text, &end, 0);
	if (errno == ERANGE)
		diag_fail(lx->d, lx->line, col_of(lx, s), "D_INT_OFLOW",
			  "constant %s results in integer overflow", text);
	if (*end && !strchr("uUlL", *end))
		diag_fail(lx->d, lx->line, col_of(lx, s), "D_INT_DIGIT",
			  "constant %s contains invalid digit %c", text, *end);
	t->kind = TK_INT;
	t->ival = (int64_t)v;
	lex_int_type(v, end, text[0] != '0', &t->itype);
	lx->p = q;
}

/* ---- string and character constants ---- */

/* Find the closing quote; a newline first is D_STR_NL / D_CHR_NL, as is a
 * backslash-newline.  End of input first is a stray quote character. */
static const char *find_closing(struct lexer *lx, char quote)
{
	const char *q = lx->p + 1;

	for (;;) {
		if (*q == '\\' && q[1] && q[1] != '\n') {
			q += 2;
		} else if (*q == '\\') {
			q++;
		} else if (*q == quote) {
			return q;
		} else if (*q == '\n') {
			if (quote == '"')
				diag_fail(lx->d, lx->line + 1, 1, "D_STR_NL",
					  "newline encountered in string literal");
			diag_fail(lx->d, lx->line + 1, 1, "D_CHR_NL",
				  "newline encountered in character constant");
		} else if (*q == '\0') {
			lex_error(lx, "syntax error near \"%c\"", quote);
		} else {
			q++;
		}
	}
}

static void lex_string(struct lexer *lx, struct token *t)
{
	const char *close = find_closing(lx, '"');
	size_t n = close - (lx->p + 1);
	char *buf = arena_alloc(lx->a, n + 1);

	t->kind = TK_STR;
	t->slen = decode_escapes(buf, lx->p + 1, n);
	t->str = buf;
	lx->p = close + 1;
}

/* A character constant is an int whose bytes are the characters, the
 * first one most significant: 'ab' is 0x6162. */
static void lex_char(struct lexer *lx, struct token *t)
{
	const char *close = find_closing(lx, '\'');
	size_t n = close - (lx->p + 1);
	char *buf = arena_alloc(lx->a, n + 1);
	uint64_t v = 0;

	if (n == 0)
		diag_fail(lx->d, lx->line, col_of(lx, lx->p), "D_CHR_NULL",
			  "empty character constant");
	n = decode_escapes(buf, lx->p + 1, n);
	if (n > sizeof(uint64_t))
		diag_fail(lx->d, lx->line, col_of(lx, lx->p), "D_CHR_OFLOW",
			  "character constant is too long");
	for (size_t i = 0; i < n; i++)
		v = v << 8 | (unsigned char)buf[i];
	t->kind = TK_INT;
	t->ival = (int64_t)v;
	lex_int_type(v, "", true, &t->itype);
	lx->p = close + 1;
}

/* ---- macro arguments and macro variables ---- */

/* $pid, $target...: DTrace's macro variables, the values of the tracing
 * process itself except $target, the -p/-c process. */
static bool macro_variable(const struct lexer *lx, const char *name, int64_t *v)
{
	if (!strcmp(name, "pid"))
		*v = getpid();
	else if (!strcmp(name, "ppid"))
		*v = getppid();
	else if (!strcmp(name, "pgid"))
		*v = getpgid(0);
	else if (!strcmp(name, "sid"))
		*v = getsid(0);
	else if (!strcmp(name, "uid"))
		*v = getuid();
	else if (!strcmp(name, "euid"))
		*v = geteuid();
	else if (!strcmp(name, "gid"))
		*v = getgid();
	else if (!strcmp(name, "egid"))
		*v = getegid();
	else if (!strcmp(name, "projid") || !strcmp(name, "taskid"))
		*v = 0;
	else if (!strcmp(name, "target"))
		*v = lx->o ? lx->o->target_pid : 0;
	else
		return false;
	return true;
}

/* The text of macro argument i, or NULL if it is not defined and the
 * defaultargs option does not supply a default. */
static const char *macro_argument(struct lexer *lx, long i, const char *dflt)
{
	const struct parse_opts *o = lx->o;

	if (o && i < o->argc) {
		lx->macro_used[i] = true;
		return o->argv[i];
	}
	return (o && o->defaultargs) || lx->defaultargs_option ? dflt : NULL;
}

static bool is_ident_text(const char *s)
{
	if (!isalpha((unsigned char)*s) && *s != '_' && *s != '`')
		return false;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && *s != '_' && *s != '`')
			return false;
	return true;
}

/* $N: an integer if the argument reads as one, an identifier if it is a
 * name, otherwise a string (quotes around it removed), as DTrace does. */
static void expand_argument(struct lexer *lx, struct token *t, const char *v)
{
	const char *digits = v + (*v == '-' || *v == '+');
	char *end;

	if (isdigit((unsigned char)*digits)) {
		errno = 0;
		uint64_t n = strtoull(digits, &end, 0);
		if (errno == ERANGE)
			diag_fail(lx->d, lx->line, col_of(lx, t->start),
				  "D_MACRO_OFLOW", "macro argument %s constant "
				  "%s results in integer overflow", t->text, digits);
		if (*end == '\0' || strspn(end, "uUlL") == strlen(end)) {
			t->kind = TK_INT;
			t->ival = *v == '-' ? -(int64_t)n : (int64_t)n;
			lex_int_type(n, end, *digits != '0', &t->itype);
			return;
		}
	}
	if (is_ident_text(v)) {
		t->kind = TK_IDENT;
		t->str = v;
		return;
	}
	size_t len = strlen(v);
	if (len >= 2 && v[0] == '"' && v[len - 1] == '"')
		v++, len -= 2;
	char *buf = arena_alloc(lx->a, len + 1);
	t->kind = TK_STR;
	t->slen = decode_escapes(buf, v, len);
	t->str = buf;
}

static _Noreturn void macro_undefined(struct lexer *lx, const struct token *t,
				      const char *what)
{
	diag_fail(lx->d, lx->line, col_of(lx, t->start), "D_MACRO_UNDEF",
		  "macro %s %s is not defined", what, t->text);
}

/* $N, $$N, $name, $$name.  A lone '$' is a syntax error, as in DTrace. */
static void lex_dollar(struct lexer *lx, struct token *t)
{
	const char *s = lx->p, *q = s + 1;
	bool as_string = *q == '$';

	q += as_string;
	if (isdigit((unsigned char)*q)) {
		while (isdigit((unsigned char)*q))
			q++;
	} else if (isalpha((unsigned char)*q) || *q == '_' || *q == '`') {
		while (isalnum((unsigned char)*q) || *q == '_' || *q == '`')
			q++;
	} else {
		lex_error(lx, "syntax error near \"$\"");
	}
	t->start = s;
	t->len = q - s;
	t->text = arena_strndup(lx->a, s, q - s);
	const char *name = t->text + 1 + as_string;
	if (isdigit((unsigned char)*name)) {
		const char *v = macro_argument(lx, strtol(name, NULL, 10),
					       as_string ? "" : "0");
		if (!v)
			macro_undefined(lx, t, "argument");
		if (as_string) {
			char *buf = arena_alloc(lx->a, strlen(v) + 1);
			t->kind = TK_STR;
			t->slen = decode_escapes(buf, v, strlen(v));
			t->str = buf;
		} else {
			expand_argument(lx, t, v);
		}
	} else {
		int64_t v;
		if (!macro_variable(lx, name, &v))
			macro_undefined(lx, t, "variable");
		if (as_string) {
			t->kind = TK_STR;
			t->str = arena_printf(lx->a, "%lld", (long long)v);
			t->slen = strlen(t->str);
		} else {
			t->kind = TK_INT;
			t->ival = v;
			lex_int_type((uint64_t)v, "", true, &t->itype);
		}
	}
	lx->p = q;
}

/*
 * Probe descriptions expand $1 and $name textually, anywhere in the text:
 * "pid$target:libc.so.6::entry" names the -p process.  $$1 and $$name are
 * the same text: a probe description is a string already, so the quoting
 * that $$ asks for changes nothing (dt_subr.c's dtrace_xstr2desc skips
 * the second '$' the same way).
 */
const char *lex_expand_pspec(struct lexer *lx, const char *text, int line,
			     int col)
{
	if (!strchr(text, '$'))
		return text;
	size_t cap = strlen(text) + 64, n = 0;
	char *out = arena_alloc(lx->a, cap);

	for (const char *s = text; *s;) {
		const char *val = NULL;
		char num[32];
		size_t len = 1;

		if (s[0] == '$' && s[1] == '$' &&
		    (isalnum((unsigned char)s[2]) || s[2] == '_'))
			s++;
		if (*s == '$' && isdigit((unsigned char)s[1])) {
			len += strspn(s + 1, "0123456789");
			val = macro_argument(lx, strtol(s + 1, NULL, 10), "");
			if (!val)
				diag_fail(lx->d, line, col, "D_MACRO_UNDEF",
					  "macro argument %.*s is not defined",
					  (int)len, s);
		} else if (*s == '$' && (isalpha((unsigned char)s[1]) || s[1] == '_')) {
			int64_t v;
			len += strspn(s + 1, "abcdefghijklmnopqrstuvwxyz"
				      "ABCDEFGHIJKLMNOPQRSTUVWXYZ_0123456789");
			char *name = arena_strndup(lx->a, s + 1, len - 1);
			if (!macro_variable(lx, name, &v))
				diag_fail(lx->d, line, col, "D_MACRO_UNDEF",
					  "macro variable $%s is not defined", name);
			snprintf(num, sizeof(num), "%lld", (long long)v);
			val = num;
		}
		size_t vlen = val ? strlen(val) : 1;
		if (n + vlen + 1 > cap) {
			char *bigger = arena_alloc(lx->a, 2 * (n + vlen + 1));
			memcpy(bigger, out, n);
			out = bigger;
			cap = 2 * (n + vlen + 1);
		}
		memcpy(out + n, val ? val : s, vlen);
		n += vlen;
		s += len;
	}
	out[n] = '\0';
	return out;
}

/* ---- control lines ---- */

struct ctl_word {
	const char *s;
	bool quoted;
};

enum { CTL_MAX_WORDS = 32 };

/* Split a control line into words and strings up to its newline; the
 * newline itself is left unread. */
static int ctl_words(struct lexer *lx, struct ctl_word *w)
{
	int n = 0;

	for (;;) {
		lx->p += strspn(lx->p, " \t\f\v\r");
		if (*lx->p == '\0')
			lex_error(lx, "end-of-file encountered before end of "
				  "control line");
		if (*lx->p == '\n')
			return n;
		struct token t = { 0 };
		const char *s = lx->p;
		if (*s == '"') {
			lex_string(lx, &t);
		} else {
			lx->p += strcspn(s, " \t\f\v\r\n\"");
			t.str = arena_strndup(lx->a, s, lx->p - s);
		}
		if (n < CTL_MAX_WORDS)
			w[n++] = (struct ctl_word){ t.str, *s == '"' };
	}
}

static _Noreturn void ctl_fail(struct lexer *lx, int line, const char *tag,
			       const char *msg, const char *arg)
{
	diag_fail(lx->d, line, 0, tag, msg, arg);
}

static void record_option(struct lexer *lx, const char *word, int line)
{
	struct pragma_opt *po = arena_alloc(lx->a, sizeof(*po));
	const char *eq = strchr(word, '=');

	po->name = eq ? arena_strndup(lx->a, word, eq - word) : word;
	po->value = eq ? eq + 1 : NULL;
	po->line = line;
	if (!strcmp(po->name, "pspec"))
		lx->pspec_option = true;
	/* DTrace sets the option as the pragma is read, so it holds for
	 * the $N after it */
	if (!strcmp(po->name, "defaultargs"))
		lx->defaultargs_option = true;
	if (lx->npragmas == lx->cap_pragmas) {
		int cap = lx->cap_pragmas ? 2 * lx->cap_pragmas : 8;
		struct pragma_opt **v = arena_alloc(lx->a, cap * sizeof(*v));
		if (lx->npragmas)
			memcpy(v, lx->pragmas, lx->npragmas * sizeof(*v));
		lx->pragmas = v;
		lx->cap_pragmas = cap;
	}
	lx->pragmas[lx->npragmas++] = po;
}

static _Noreturn void pragma_error(struct lexer *lx, struct ctl_word *w, int n,
				   int line)
{
	char msg[sizeof(lx->d->msg)] = "#error: ";
	size_t len = strlen(msg);

	for (int i = 0; i < n && len < sizeof(msg) - 1; i++)
		len += snprintf(msg + len, sizeof(msg) - len, "%s ", w[i].s);
	ctl_fail(lx, line, "D_PRAGERR", "%s", msg);
}

/* An attribute is stability[/stability[/class]], as dtrace_str2attr. */
static bool valid_attributes(const char *s)
{
	static const char *const names[] = {
		"Internal", "Private", "Obsolete", "External", "Unstable",
		"Evolving", "Stable", "Standard", "Unknown", "CPU", "Platform",
		"Group", "ISA", "Common", NULL,
	};
	int parts = 0;

	for (const char *p = s; *p; parts++) {
		size_t len = strcspn(p, "/");
		bool ok = false;
		for (int i = 0; names[i]; i++)
			ok |= strlen(names[i]) == len && !strncmp(names[i], p, len);
		if (!ok || parts >= 3)
			return false;
		p += len + (p[len] == '/');
	}
	return parts > 0;
}

/* A word of a control line that DTrace's lexer reads as an identifier. */
static bool ctl_ident(const struct ctl_word *w)
{
	return !w->quoted && !isdigit((unsigned char)w->s[0]);
}

/*
 * The pragmas below each take the words after the pragma's name and
 * return the line number the next line has (line + 1 but for #line).
 */
static int pragma_option(struct lexer *lx, const char *name,
			 struct ctl_word *w, int n, int line)
{
	if (n < 1 || !ctl_ident(&w[0]))
		ctl_fail(lx, line, "D_PRAGMA_MALFORM",
			 "malformed #pragma %s <option>=<val>", name);
	if (n > 1)
		ctl_fail(lx, line, "D_PRAGMA_MALFORM",
			 "superfluous arguments specified for #pragma %s", name);
	record_option(lx, w[0].s, line);
	return line + 1;
}

static int pragma_error_line(struct lexer *lx, const char *name,
			     struct ctl_word *w, int n, int line)
{
	pragma_error(lx, w, n, line);
}

static int pragma_ident(struct lexer *lx, const char *name,
			struct ctl_word *w, int n, int line)
{
	return line + 1;	/* #ident lines are ignored */
}

/* #line N ["file" [state...]]: only integers after the file name */
static int pragma_line(struct lexer *lx, const char *name,
		       struct ctl_word *w, int n, int line)
{
	bool ok = n > 0 && isdigit((unsigned char)w[0].s[0]) && !w[0].quoted &&
		  (n < 2 || w[1].quoted);

	for (int i = 2; ok && i < n; i++)
		ok = !w[i].quoted && isdigit((unsigned char)w[i].s[0]);
	if (!ok)
		ctl_fail(lx, line, "D_PRAGMA_MALFORM",
			 "malformed #%s <line> [ [\"file\"] state ]", name);
	return (int)strtol(w[0].s, NULL, 10);
}

static int pragma_attributes(struct lexer *lx, const char *name,
			     struct ctl_word *w, int n, int line)
{
	if (n < 2 || !ctl_ident(&w[0]) || !ctl_ident(&w[1]))
		ctl_fail(lx, line, "D_PRAGMA_MALFORM",
			 "malformed #pragma %s <attributes> <ident>", name);
	if (!valid_attributes(w[0].s))
		ctl_fail(lx, line, "D_PRAGMA_INVAL",
			 "invalid attributes specified by #pragma %s", name);
	/* a provider's attributes are its own; an identifier's must find
	 * it in the program (compile.c) */
	if (strcmp(w[1].s, "provider") != 0) {
		struct pragma_opt *pa = ARENA_PUSH(lx->a, lx->attrs,
						   lx->nattrs, lx->cap_attrs);
		pa->name = w[1].s;
		pa->value = NULL;
		pa->line = line;
	}
	return line + 1;
}

/* dt_version_str2num: major[.minor[.micro]], 8, 12 and 12 bits */
static bool valid_version(const char *s)
{
	static const long max[3] = { 0xff, 0xfff, 0xfff };
	long v[3] = { 0 };
	int i = 0;

	for (; *s; s++) {
		if (isdigit((unsigned char)*s))
			v[i] = v[i] * 10 + (*s - '0');
		else if (*s != '.' || ++i > 2)
			return false;
		if (v[i] > max[i])
			return false;
	}
	return true;
}

/* #pragma D binding "version" ident: the version an identifier needs;
 * dscope is every version, so only the form is checked */
static int pragma_binding(struct lexer *lx, const char *name,
			  struct ctl_word *w, int n, int line)
{
	if (n < 2 || !w[0].quoted || !ctl_ident(&w[1]))
		ctl_fail(lx, line, "D_PRAGMA_MALFORM",
			 "malformed #pragma %s \"version\" <ident>", name);
	if (!valid_version(w[0].s))
		ctl_fail(lx, line, "D_PRAGMA_INVAL",
			 "invalid version string specified by #pragma %s", name);
	return line + 1;
}

/* #pragma D depends_on provider|module|library name: a library's are
 * the D library's business; a provider or module must exist, which the
 * compile driver checks against the kernel (compile.c) */
static int pragma_depends(struct lexer *lx, const char *name,
			  struct ctl_word *w, int n, int line)
{
	if (n < 2 || !ctl_ident(&w[0]) || !ctl_ident(&w[1]))
		ctl_fail(lx, line, "D_PRAGMA_MALFORM",
			 "malformed #pragma %s <class> <name>", name);
	if (!strcmp(w[0].s, "library")) {
		if (!(lx->o && lx->o->is_library))
			ctl_fail(lx, line, "D_PRAGMA_DEPEND", "%s",
				 "main program may not explicitly depend on a "
				 "library");
	} else if (!strcmp(w[0].s, "provider") || !strcmp(w[0].s, "module")) {
		struct pragma_opt *pd = ARENA_PUSH(lx->a, lx->depends,
						   lx->ndepends, lx->cap_depends);
		pd->name = w[0].s;
		pd->value = w[1].s;
		pd->line = line;
	} else {
		diag_fail(lx->d, line, 0, "D_PRAGMA_INVAL",
			  "invalid class %s specified by #pragma %s", w[0].s,
			  name);
	}
	return line + 1;
}

/*
 * DTrace's pragmas (dt_pragma.c's dt_pragmas[]), and where each may be
 * written: after a bare "#", after "#pragma", or only after "#pragma D".
 * ORDER: none.
 */
enum pragma_place { AFTER_HASH, AFTER_PRAGMA, AFTER_PRAGMA_D };

static const struct pragma_row {
	const char *name;
	enum pragma_place place;	/* the least specific place allowed */
	int (*read)(struct lexer *lx, const char *name, struct ctl_word *w,
		    int n, int line);
} pragmas[] = {
	{ "attributes", AFTER_PRAGMA_D, pragma_attributes },
	{ "binding", AFTER_PRAGMA_D, pragma_binding },
	{ "depends_on", AFTER_PRAGMA_D, pragma_depends },
	{ "error", AFTER_HASH, pragma_error_line },
	{ "ident", AFTER_HASH, pragma_ident },
	{ "line", AFTER_HASH, pragma_line },
	{ "option", AFTER_PRAGMA_D, pragma_option },
};

/* Returns the line number the next line should have (dt_pragma). */
static int control_directive(struct lexer *lx, struct ctl_word *w, int n,
			     int line)
{
	enum pragma_place place = AFTER_HASH;
	int i = 0;

	if (isdigit((unsigned char)w[0].s[0]))	/* cpp's "# N file" */
		return pragma_line(lx, "line", w, n, line);
	if (!strcmp(w[0].s, "pragma")) {
		place = AFTER_PRAGMA;
		i = 1;
		if (i < n && !strcmp(w[i].s, "D")) {
			place = AFTER_PRAGMA_D;
			i++;
		}
	}
	if (i == n)
		return line + 1;
	for (size_t r = 0; r < sizeof(pragmas) / sizeof(pragmas[0]); r++)
		if (pragmas[r].place <= place && !strcmp(pragmas[r].name, w[i].s))
			return pragmas[r].read(lx, w[i].s, w + i + 1, n - i - 1,
					       line);
	if (place == AFTER_HASH)
		ctl_fail(lx, line, "D_PRAGCTL_INVAL",
			 "invalid control directive: #%s", w[i].s);
	if (place == AFTER_PRAGMA_D)
		ctl_fail(lx, line, "D_PRAGMA_INVAL", "invalid D pragma: %s",
			 w[i].s);
	return line + 1;	/* K&R A12.8: an unknown #pragma is ignored */
}

/* A control line: lx->p is at the '#'.  "#!" lines are comments. */
static void control_line(struct lexer *lx)
{
	struct ctl_word w[CTL_MAX_WORDS];
	int line = lx->line, next;

	if (lx->p[1] == '!') {
		lx->p += strcspn(lx->p, "\n");
		return;
	}
	lx->p++;
	int n = ctl_words(lx, w);
	next = n ? control_directive(lx, w, n, line) : line + 1;
	lx->p++;
	newline(lx);
	lx->line = next;
}

/* ---- blanks, comments, control lines ---- */

static bool at_line_start(const struct lexer *lx)
{
	for (const char *q = lx->line_start; q < lx->p; q++)
		if (!strchr(" \t\f\v\r", *q))
			return false;
	return true;
}

static void skip_comment(struct lexer *lx)
{
	for (lx->p += 2;; lx->p++) {
		if (*lx->p == '\0')
			lex_error(lx, "end-of-file encountered before matching */");
		if (lx->p[0] == '/' && lx->p[1] == '*')
			lex_error(lx, "/* encountered inside a comment");
		if (lx->p[0] == '*' && lx->p[1] == '/') {
			lx->p += 2;
			return;
		}
		if (*lx->p == '\n') {
			lx->p++;
			newline(lx);
			lx->p--;
		}
	}
}

static void skip_blanks(struct lexer *lx)
{
	for (;;) {
		char c = *lx->p;

		if (c == '\n') {
			lx->p++;
			newline(lx);
		} else if (c == ' ' || c == '\t' || c == '\f' || c == '\v' ||
			   c == '\r') {
			lx->p++;
		} else if (c == '\\' && lx->p[1] == '\n') {
			lx->p += 2;
			newline(lx);
		} else if (c == '/' && lx->p[1] == '*') {
			skip_comment(lx);
		} else if (c == '/' && lx->p[1] == '/') {
			lx->p += strcspn(lx->p, "\n");
		} else if (c == '#' && at_line_start(lx)) {
			control_line(lx);
		} else {
			return;
		}
	}
}

/* ---- operators ---- */

/* After "/" in an expression: it closes the predicate if what follows is
 * end of input, ';', '{' or '/'. */
static bool closes_predicate(const char *q)
{
	q += strspn(q, " \t\n\r\f\v");
	return *q == '\0' || *q == ';' || *q == '{' || *q == '/';
}

static void count_bracket(struct lexer *lx, char c)
{
	int *count = c == '(' || c == ')' ? &lx->parens :
		     c == '[' || c == ']' ? &lx->brackets : &lx->braces;

	if (c == '(' || c == '[' || c == '{') {
		(*count)++;
	} else if (--*count < 0) {
		lex_error(lx, "extra %c in input stream", c);
	}
}

static void lex_punct(struct lexer *lx, struct token *t)
{
	const char *s = lx->p;

	t->kind = TK_PUNCT;
	for (size_t i = 0; i < sizeof(punct_table) / sizeof(punct_table[0]); i++) {
		size_t n = strlen(punct_table[i].text);
		if (!strncmp(s, punct_table[i].text, n)) {
			t->op = punct_table[i].op;
			lx->p += n;
			if (t->op == OP_ARROW)
				lx->member_next = true;
			return;
		}
	}
	if (*s == '\0' || !strchr(single_punct, *s))
		lex_error(lx, "syntax error near \"%c\"", *s);
	if (*s == '.' && isdigit((unsigned char)s[1]))
		lex_error(lx, "floating-point constants are not permitted");
	t->op = *s;
	if (strchr("()[]{}", *s))
		count_bracket(lx, *s);
	if (*s == '/' && closes_predicate(s + 1)) {
		/* DTrace has read up to the next token: that is the line */
		int line = lx->line;
		for (const char *q = s + 1; *q && strchr(" \t\n\r\f\v", *q); q++)
			line += *q == '\n';
		if (lx->parens || lx->brackets)
			diag_fail(lx->d, line, 0, "D_SYNTAX", "closing %c expected "
				  "in predicate before /", lx->parens ? ')' : ']');
		t->kind = TK_EPRED;
	}
	lx->member_next = *s == '.';
	lx->p++;
}

/* ---- identifiers and probe descriptions ---- */

static bool ident_char(char c)
{
	return isalnum((unsigned char)c) || c == '_' || c == '`';
}

static void lex_ident(struct lexer *lx, struct token *t)
{
	const char *s = lx->p, *q = s + 1;
	int kw;

	while (ident_char(*q))
		q++;
	lx->p = q;
	kw = lx->member_next ? -1 : keyword_lookup(s, q - s);
	if (kw >= 0) {
		t->kind = TK_KW;
		t->op = kw;
		return;
	}
	t->kind = TK_IDENT;
	t->str = arena_strndup(lx->a, s, q - s);
}

static void lex_agg(struct lexer *lx, struct token *t)
{
	const char *s = ++lx->p;

	if (isalpha((unsigned char)*s) || *s == '_')
		while (isalnum((unsigned char)*lx->p) || *lx->p == '_')
			lx->p++;
	t->kind = TK_AGG;
	t->str = arena_strndup(lx->a, s, lx->p - s);
}

static bool pspec_char(char c, bool first)
{
	if (isalpha((unsigned char)c) || strchr("-$:_.?*\\[]!", c))
		return c != '\0';
	return !first && c && (isdigit((unsigned char)c) || c == '`' || c == '+');
}

static bool is_type_word(struct lexer *lx, const char *w, size_t len)
{
	int kw = keyword_lookup(w, len);
	static const unsigned char type_kw[KW_COUNT] = {
		[KW_CHAR] = 1, [KW_SHORT] = 1, [KW_INT] = 1, [KW_LONG] = 1,
		[KW_SIGNED] = 1, [KW_UNSIGNED] = 1, [KW_FLOAT] = 1,
		[KW_DOUBLE] = 1, [KW_VOID] = 1, [KW_STRING] = 1,
	};

	if (kw >= 0)
		return type_kw[kw];
	return lx->is_type && lx->is_type(lx->is_type_arg,
					  arena_strndup(lx->a, w, len));
}

/*
 * A run of description characters in the outer scope.  As in dt_lex.l,
 * "int*x" could be a glob or the start of "int *x;": unless the pspec
 * option is set or the text has a character no type name has, a run whose
 * part before '*' is a type name is a type, and the lexer backs up to '*'.
 * BEGIN, END and ERROR are always descriptions.
 */
static void lex_top_word(struct lexer *lx, struct token *t)
{
	const char *s = lx->p, *q = s + 1;

	while (pspec_char(*q, false))
		q++;
	int kw = keyword_lookup(s, q - s);
	if (kw >= 0 && top_keyword[kw]) {
		lx->p = q;
		t->kind = TK_KW;
		t->op = kw;
		return;
	}
	char *text = arena_strndup(lx->a, s, q - s);
	if (!lx->pspec_option && !strpbrk(text, ":-.?!`") &&
	    strcmp(text, "BEGIN") && strcmp(text, "END") && strcmp(text, "ERROR")) {
		const char *star = strchr(text, '*');
		size_t len = star && star > text ? (size_t)(star - text) : strlen(text);
		if (is_type_word(lx, text, len)) {
			lx->p = s + len;
			kw = keyword_lookup(s, len);
			t->kind = kw >= 0 ? TK_KW : TK_IDENT;
			t->op = kw;
			t->str = arena_strndup(lx->a, s, len);
			return;
		}
	}
	lx->p = q;
	t->kind = TK_PSPEC;
	t->str = text;
}

/* ---- the entry point ---- */

static void lex_top(struct lexer *lx, struct token *t)
{
	char c = *lx->p;

	if (isdigit((unsigned char)c)) {
		lex_number(lx, t);
	} else if (pspec_char(c, true)) {
		lex_top_word(lx, t);
	} else if (c == '{' || c == '/' || c == ',') {
		if (c == '{')
			lx->braces++;
		t->kind = TK_PUNCT;
		t->op = c;
		lx->p++;
	} else {
		lex_error(lx, "syntax error near \"%c\"", c);
	}
}

static void lex_expr(struct lexer *lx, struct token *t)
{
	char c = *lx->p;
	bool member = lx->member_next;

	if (isdigit((unsigned char)c))
		lex_number(lx, t);
	else if (isalpha((unsigned char)c) || c == '_' || c == '`')
		lex_ident(lx, t);
	else if (c == '"')
		lex_string(lx, t);
	else if (c == '\'')
		lex_char(lx, t);
	else if (c == '@')
		lex_agg(lx, t);
	else if (c == '$')
		lex_dollar(lx, t);
	else
		lex_punct(lx, t);
	if (member)
		lx->member_next = false;
	/* dt_lex.l's look past an identifier for '=' or '[' pushes a NUL
	 * back at end of input, which then reads as "end-of-input". */
	if (t->kind == TK_IDENT && !member && c != '$' &&
	    lx->p[strspn(lx->p, " \t\n\r\f\v")] == '\0')
		lx->eof_after_ident = true;
}

void lex_next(struct lexer *lx, enum lex_mode mode, struct token *t)
{
	memset(t, 0, sizeof(*t));
	skip_blanks(lx);
	t->line = lx->line;
	t->col = col_of(lx, lx->p);
	t->start = lx->p;
	if (*lx->p == '\0') {
		if (lx->eof_after_ident)
			lex_error(lx, "syntax error near end-of-input");
		t->kind = TK_EOF;
		t->text = "";
		return;
	}
	if (mode == LEX_TOP)
		lex_top(lx, t);
	else
		lex_expr(lx, t);
	if (!t->text) {
		t->len = lx->p - t->start;
		t->text = arena_strndup(lx->a, t->start, t->len);
	}
}
