/*
 * ast.h -- the parsed D program.
 *
 * The parser (parse.c) builds this tree; sema (sema.c) decorates it with
 * types and resolves identifiers; cg (src/cg/) walks it to emit BPF.
 *
 * Ownership: every node, string and list lives in the compile arena
 * (struct arena, arena.h).  Nothing here is freed one by one: the whole
 * arena goes when the compile is done.  Pointers into the tree stay valid
 * for as long as the arena lives.
 *
 * Positions: every node carries the line and column (1-based) of its first
 * token, so that sema and cg can report errors at the right place.
 */
#ifndef DSCOPE_AST_H
#define DSCOPE_AST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "d/funcs.h"
#include "d/probedesc.h"
#include "d/types.h"

/* Expression and statement node kinds.  ORDER NODE: node_kind_name[] in ast.c. */
enum node_kind {
	/* expressions */
	N_INT,	   /* integer or character literal: ival, type (int/long/unsigned...) */
	N_STR,	   /* string literal: str (escapes already decoded), slen */
	N_IDENT,   /* identifier: name -- builtin, global variable, inline, enum */
	N_AGG,	   /* aggregation reference @name: name ("@" alone is name "") */
	N_UNARY,   /* op a: '-', '+', '!', '~', '*' (deref), '&' (address of) */
	N_BINARY,  /* a op b: arithmetic, comparison, logical, bitwise, ',' */
	N_TERNARY, /* a ? b : c  (cond, a, b stored as kids[0..2]) */
	N_ASSIGN,  /* a op b: op is '=' or a compound op (OP_ADD for +=, ...) */
	N_INCDEC,  /* ++a, a++, --a, a--: op is OP_PREINC/OP_POSTINC/... */
	N_CALL,	   /* name(args): subroutine, action or aggregating function */
	N_INDEX,   /* a[args]: associative array, args[], array, pointer */
	N_MEMBER,  /* a.name or a->name (op is '.' or OP_ARROW); self->x, this->x */
	N_CAST,	   /* (decl_type) a */
	N_SIZEOF,  /* sizeof(type) (decl_type set) or sizeof expr (a set) */
	N_OFFSETOF,/* offsetof(decl_type, name) */
	N_STRINGOF,/* stringof(a) or stringof a */
	N_XLATE,   /* xlate <decl_type> (a) */

	/* statements */
	S_EXPR,	   /* expression statement: a */
	S_AGG,	   /* @name[keys] = func(args): agg (N_AGG), keys, call (N_CALL) */
	S_IF,	   /* if (a) then_body else else_body */
	S_DECL,	   /* clause-local or global declaration inside a clause body */
	S_BLOCK,   /* { body } */
};

/* Operators for N_UNARY / N_BINARY / N_ASSIGN / N_INCDEC.  Single-character
 * operators use the character itself; the rest start above 255. */
enum {
	OP_LOR = 256,	/* || */
	OP_LAND,	/* && */
	OP_LXOR,	/* ^^ */
	OP_EQ,		/* == */
	OP_NE,		/* != */
	OP_LE,		/* <= */
	OP_GE,		/* >= */
	OP_SHL,		/* << */
	OP_SHR,		/* >> */
	OP_ARROW,	/* -> */
	OP_PREINC,	/* ++a */
	OP_PREDEC,	/* --a */
	OP_POSTINC,	/* a++ */
	OP_POSTDEC,	/* a-- */
	/* compound assignment: N_ASSIGN.op is the arithmetic op, and
	 * node.compound is true; plain '=' has op '=' */
};

struct node;

/* A growable array of node pointers, arena-backed. */
struct node_list {
	struct node **v;
	int n;
	int cap;
};

/* A declared type as written in the source: "unsigned long", "struct task_struct *",
 * "string", "int [4]".  Resolved by sema into a struct dtype. */
struct decl_type {
	const char *text;	/* the type name as written, normalized spacing */
	int line, col;
	bool tuple;		/* a variable with a tuple signature: x[int] */
};

struct node {
	enum node_kind kind;
	int op;			/* operator, see above */
	bool compound;		/* N_ASSIGN: "a op= b" rather than "a = b" */
	bool raw_arg;		/* N_IDENT argN of D library text: the base
				 * probe's own, even where a lowered probe's
				 * translated args[] cook it again */
	int line, col;		/* position of the first token */

	/* literals and names */
	int64_t ival;		/* N_INT */
	const char *str;	/* N_STR (decoded), N_IDENT/N_AGG/N_CALL/N_MEMBER name */
	enum dfunc fn;		/* N_CALL: the function's row (d/funcs.h), set
				 * where the parser makes the call */
	size_t slen;		/* N_STR: length without the terminating NUL */

	/* children */
	struct node *a, *b, *c;	/* operands; N_TERNARY: a ? b : c */
	struct node_list args;	/* N_CALL arguments, N_INDEX subscripts, S_AGG keys */
	struct node *agg;	/* S_AGG: the N_AGG node */
	struct node *call;	/* S_AGG: the aggregating function N_CALL */
	struct decl_type *decl_type;	/* N_CAST, N_SIZEOF, N_OFFSETOF, N_XLATE, S_DECL */
	struct node_list body;	/* S_IF then-branch, S_BLOCK body */
	struct node_list else_body;	/* S_IF else-branch (may be empty) */
	int decl_scope;		/* S_DECL: DECL_GLOBAL, DECL_SELF, DECL_THIS */

	/* filled in by sema */
	struct dtype type;	/* the D type of this expression */
	int symkind;		/* SYM_* below: what an identifier resolved to */
	int sym;		/* index of the resolved symbol (variable, builtin, agg) */
	void *cg;		/* cg's private annotation */
};

enum { DECL_GLOBAL, DECL_SELF, DECL_THIS };

/* What sema resolved a name to (node.symkind). */
enum { SYM_NONE, SYM_BUILTIN, SYM_GLOBAL, SYM_AGG, SYM_ARGS, SYM_CONST, SYM_DVAR,
       SYM_INLINE,
       SYM_UREGS,	/* uregs[N]: sym is N, a D library R_* index */
       SYM_STATIC,	/* a member or element of a global or this-> struct or
			 * array: sym is the space (STATIC_*), ival the offset */
       SYM_DVAR_MEMBER };	/* a.m written, a a struct in a dynamic variable
				 * (a[k].m = v): cg (the member) */
enum { STATIC_GLOBALS, STATIC_SCRATCH };

struct probe;

struct clause {
	struct probe_desc **descs;	/* one or more descriptions */
	int ndescs;
	struct node *pred;		/* predicate or NULL */
	struct node_list body;		/* statements; empty body means default action */
	bool has_body;			/* "{ }" present (empty or not) */
	int line, col;
	int end_line;			/* its "}": DTrace checks the predicate there */
	int id;				/* index in program order */
	/* a copy of a clause for one lowered probe (compile.c): it runs at
	 * the base probe and reports itself as this one */
	const struct probe *shown;
};

/* One "probe name(native...) [: (translated...)]" of a provider
 * definition.  Only the native argument list is kept: it is what the
 * application passes, and all that dscope -h and -G need (the translated
 * types matter only to the tracing side, which reads the ELF notes). */
struct provider_probe {
	const char *name;		/* as declared: "request__start" */
	const char **args;		/* native types' text: "char *" */
	int nargs;			/* "()" and "(void)" declare none */
	int line, col;
};

/* A top-level declaration: "int x;", "self int y;", "inline int z = 3;",
 * "typedef ...", "struct s {...};", "translator ..." -- recorded as text for
 * sema, which owns their meaning. */
struct top_decl {
	int kind;			/* TOP_VAR, TOP_INLINE, TOP_TYPEDEF, TOP_STRUCT, ... */
	int scope;			/* DECL_GLOBAL / DECL_SELF / DECL_THIS */
	struct decl_type *type;
	const char *name;
	struct node *init;		/* inline value */
	struct dtype *init_type;	/* sema: an inline's declared type */
	int line, col;
	/* TOP_XLATOR: translator OUT < IN in_name > { member = expr; ... } */
	struct decl_type *out_type, *in_type;
	const char *in_name;
	struct node_list members;	/* N_ASSIGN: a N_IDENT member, b expr */
	int end_line;			/* of its "}": where DTrace checks it */
	/* TOP_PROVIDER: provider name { probe ...; } in declaration order */
	struct provider_probe *probes;
	int nprobes;
};

enum { TOP_VAR, TOP_INLINE, TOP_TYPEDEF, TOP_STRUCT, TOP_UNION, TOP_ENUM,
       TOP_XLATOR,	/* translator: type->text is the whole definition */
       TOP_PROVIDER,	/* provider: type->text is the whole definition */
       TOP_EXTERN };	/* extern T name: the type of kernel variable `name */

/* A "#pragma D option name=value" or "#pragma D depends_on ..." line. */
struct pragma_opt {
	const char *name;
	const char *value;		/* NULL when absent */
	int line;
};

struct program {
	struct clause **clauses;
	int nclauses;
	struct top_decl **decls;
	int ndecls;
	struct pragma_opt **pragmas;
	int npragmas;
	struct pragma_opt *attrs;	/* #pragma D attributes: the names */
	int nattrs;
	struct pragma_opt *depends;	/* #pragma D depends_on: class, name */
	int ndepends;
	const char *filename;		/* for diagnostics ("" for -n) */
	int eof_line;			/* line of the end of input */
	bool *macro_used;		/* [argc]: $N or $$N referenced */
};

struct arena;

/* ORDER NODE: the name of each node kind, "N_INT", for dumps and tests. */
extern const char *const node_kind_name[];

/* A zeroed node of this kind at this position, from the arena. */
struct node *node_new(struct arena *a, enum node_kind kind, int line, int col);

/* Append n to l, growing it in the arena. */
void node_list_push(struct arena *a, struct node_list *l, struct node *n);

/* The statement of expression e: "@a[k] = f(x)" is S_AGG, any other
 * expression S_EXPR (the parser's, and sema's for a folded ?:). */
struct node *ast_expr_stmt(struct arena *a, struct node *e);

/* A deep copy of a tree as the parser made it (sema rewrites nodes in
 * place, so a tree sema is to check twice is copied first); NULL for NULL. */
struct node *node_clone(struct arena *a, const struct node *n);
struct node_list node_list_clone(struct arena *a, const struct node_list *l);

/* The args[N] a tree names, as parsed: bit N for each constant N from 0
 * to 9, and ARGS_USED_ANY for any other index (which sema rejects). */
#define ARGS_USED_ANY (1u << 10)
unsigned node_args_used(const struct node *n);
unsigned node_list_args_used(const struct node_list *l);

#endif /* DSCOPE_AST_H */
