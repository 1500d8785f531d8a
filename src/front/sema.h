/*
 * sema.h -- semantic checks: resolve names, type every expression, and
 * register aggregations and global variables in the spec.
 *
 * Sema runs clause by clause after the probes of each clause are known
 * (args[] takes its types from them).  It never emits code; cg relies on
 * what it leaves in each node (type, symkind, sym) and in the spec.
 */
#ifndef DSCOPE_SEMA_H
#define DSCOPE_SEMA_H

#include "base/arena.h"
#include "front/ast.h"
#include "base/diag.h"
#include "spec/spec.h"

struct catalog;
struct ctypes;

/* Builtin variables.  ORDER BUILTIN: builtins[] in sema.c. */
enum builtin {
	BI_PID, BI_TID, BI_PPID, BI_UID, BI_GID, BI_EXECNAME,
	BI_TIMESTAMP, BI_VTIMESTAMP, BI_WALLTIMESTAMP, BI_CPU,
	BI_PROBEPROV, BI_PROBEMOD, BI_PROBEFUNC, BI_PROBENAME,
	BI_ARG0, BI_ARG1, BI_ARG2, BI_ARG3, BI_ARG4,
	BI_ARG5, BI_ARG6, BI_ARG7, BI_ARG8, BI_ARG9,
	BI_ERRNO, BI_EPID, BI_ID, BI_CURTHREAD,
	BI_CALLER, BI_STACKDEPTH, BI_UCALLER, BI_USTACKDEPTH,
	BI_NET_INBOUND, BI_CGROUP, BI_ZONENAME, BI_NSPID,
	BI_COUNT_
};

const char *builtin_name(enum builtin b);
/* the builtin variable called name, or -1 */
int sema_find_builtin(const char *name);

struct sema {
	struct arena *a;
	struct diag *d;
	struct spec *spec;
	int aggs_cap, globals_cap, dvars_cap;	/* capacities of spec arrays */
	uint32_t strsize;		/* option strsize: bound of unknown strings */
	int stackframes, ustackframes;	/* options: stack()'s, ustack()'s frames */
	int maxframes;			/* option maxframes: at most this many */
	uint32_t scratchsize;		/* option scratchsize: alloca() bytes */
	struct catalog *cat;		/* for probe argument types */
	struct ctypes *types;		/* script, D and kernel types */
	struct top_decl **inlines;	/* inline declarations seen so far */
	int ninlines, inlines_cap;
	bool in_library;		/* declaring the D library (dlib.c) */
	bool lowered;			/* checking a clause copied for a lowered
					 * probe (compile.c): argN is its args[N] */
	bool raw_args;			/* ... but inside the D library's view of
					 * it, argN is the base probe's */
	struct top_decl **externs;	/* extern declarations seen so far:
					 * kernel variables' types */
	int nexterns, externs_cap;
	struct xlator **xlators;	/* translators seen so far */
	int nxlators, xlators_cap;
	const struct probe *const *probes;	/* what the current clause matches */
	int nprobes;
	struct alloca_state *alloca;	/* variables' alloca taint (sema_alloca.c) */
};

void sema_clause(struct sema *s, struct clause *c);
/* top-level declarations of a program, before its clauses */
void sema_decls(struct sema *s, struct program *p);
/* Does name already name something in D's global scope -- a built-in
 * variable, action, subroutine, aggregating function, inline or declared
 * global?  (arg is the struct sema: ctypes_set_ident_check's.) */
bool sema_ident_taken(void *arg, const char *name);

struct dtype type_int(int size, bool is_signed);
struct dtype type_string(uint32_t size);
/* A string of at most size bytes (NUL included) and never more than
 * strsize characters: d/types.c's dtype_string_bound(), DTrace's rule. */
struct dtype sema_string(const struct sema *s, uint32_t size);
bool type_is_int(const struct dtype *t);

#endif /* DSCOPE_SEMA_H */
