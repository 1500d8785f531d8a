/*
 * lex.h -- the D tokenizer.
 *
 * D has two lexical worlds, as DTrace's dt_lex.l has: the outer scope of a
 * program, where "syscall::read*:entry" and "tick-1s" are single tokens
 * (probe descriptions), and the inside of predicates, actions and
 * declarations, where the same characters are C operators.  The parser
 * knows which world the next token belongs to, so it names the mode on
 * every call: lex_next(lx, LEX_TOP) or lex_next(lx, LEX_EXPR).
 *
 * The lexer also owns what DTrace does below the grammar: control lines
 * (#pragma, cpp line markers, #!), macro arguments ($1, $$1, $target,
 * $pid), the bracket balance behind "extra ) in input stream", and the
 * lookahead that tells a closing predicate "/" from a division.
 *
 * Every token carries its source text, for "syntax error near" messages,
 * and its position.  Errors go through diag_fail() and do not return.
 */
#ifndef DSCOPE_LEX_H
#define DSCOPE_LEX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/arena.h"
#include "front/ast.h"
#include "base/diag.h"

struct parse_opts;

enum tok_kind {
	TK_EOF,
	TK_INT,		/* ival, itype; also character constants and $N, $pid */
	TK_STR,		/* str/slen decoded; also $$N */
	TK_IDENT,	/* str; backquoted kernel names keep their backquotes */
	TK_AGG,		/* str: the name after '@' ("" for a bare '@') */
	TK_PSPEC,	/* str: a probe description, LEX_TOP only */
	TK_KW,		/* op: KW_* */
	TK_PUNCT,	/* op: a character, an OP_* or a P_* */
	TK_EPRED,	/* the '/' that closes a predicate */
};

/* Keywords.  ORDER KW: keyword_names[] in lex.c. */
enum {
	KW_AUTO, KW_BREAK, KW_CASE, KW_CHAR, KW_CONST, KW_CONTINUE, KW_COUNTER,
	KW_DEFAULT, KW_DO, KW_DOUBLE, KW_ELSE, KW_ENUM, KW_EXTERN, KW_FLOAT,
	KW_FOR, KW_GOTO, KW_IF, KW_IMPORT, KW_INLINE, KW_INT, KW_LONG,
	KW_OFFSETOF, KW_PROBE, KW_PROVIDER, KW_REGISTER, KW_RESTRICT,
	KW_RETURN, KW_SELF, KW_SHORT, KW_SIGNED, KW_SIZEOF, KW_STATIC,
	KW_STRING, KW_STRINGOF, KW_STRUCT, KW_SWITCH, KW_THIS, KW_TRANSLATOR,
	KW_TYPEDEF, KW_UNION, KW_UNSIGNED, KW_USERLAND, KW_VOID, KW_VOLATILE,
	KW_WHILE, KW_XLATE,
	KW_COUNT
};

/* Punctuators that are neither one character nor an ast.h OP_*. */
enum {
	P_INC = 512,	/* ++ */
	P_DEC,		/* -- */
	P_ADD_EQ, P_SUB_EQ, P_MUL_EQ, P_DIV_EQ, P_MOD_EQ,
	P_AND_EQ, P_OR_EQ, P_XOR_EQ, P_SHL_EQ, P_SHR_EQ,
	P_ELLIPSIS,	/* ... */
};

enum lex_mode {
	LEX_TOP,	/* outer scope: probe descriptions, declaration starts */
	LEX_EXPR,	/* predicates, actions, declarations */
};

struct token {
	enum tok_kind kind;
	int op;			/* TK_KW: KW_*; TK_PUNCT: char, OP_* or P_* */
	const char *start;	/* source text of the token ... */
	size_t len;		/* ... and its length */
	const char *text;	/* the same text NUL-terminated, for messages */
	int line, col;

	int64_t ival;		/* TK_INT */
	struct dtype itype;	/* TK_INT: int, unsigned int, long, ... */
	const char *str;	/* TK_STR (decoded), TK_IDENT, TK_AGG, TK_PSPEC */
	size_t slen;		/* TK_STR: length without the NUL */
};

struct lexer {
	struct arena *a;
	struct diag *d;
	const struct parse_opts *o;
	const char *src;	/* the whole program, NUL-terminated */
	const char *p;		/* next unread character */
	const char *line_start;	/* first character of the current line */
	int line;
	int parens, brackets, braces;	/* balance, for DTrace's messages */
	bool member_next;	/* after '.' or '->': keywords are names */
	bool pspec_option;	/* "#pragma D option pspec": no type guessing */
	bool defaultargs_option;	/* "#pragma D option defaultargs" seen */
	bool eof_after_ident;	/* DTrace's "near end-of-input" quirk */
	bool *macro_used;	/* [argc]: argument referenced */
	bool (*is_type)(void *arg, const char *name);	/* typedef names */
	void *is_type_arg;

	struct pragma_opt **pragmas;	/* "#pragma D option" lines seen */
	int npragmas, cap_pragmas;
	struct pragma_opt *attrs;	/* "#pragma D attributes A name": name */
	int nattrs, cap_attrs;
	struct pragma_opt *depends;	/* "#pragma D depends_on C name": C,
					 * name (provider or module) */
	int ndepends, cap_depends;
};

void lex_init(struct lexer *lx, struct arena *a, struct diag *d,
	      const char *text, const struct parse_opts *o);
void lex_next(struct lexer *lx, enum lex_mode mode, struct token *t);

/* The D name of a keyword, "int" for KW_INT. */
const char *lex_keyword_name(int kw);

/* Expand $1, $target, $pid... inside a probe description's text. */
const char *lex_expand_pspec(struct lexer *lx, const char *text, int line,
			     int col);

/* Fill *t with the C integer type DTrace gives a constant of this value
 * written with this suffix ("", "u", "ul", "LL"...) in decimal or not. */
bool lex_int_type(uint64_t value, const char *suffix, bool decimal,
		  struct dtype *t);

#endif /* DSCOPE_LEX_H */
