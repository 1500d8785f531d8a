/*
 * globals.h -- the identifiers DTrace defines before any program is read:
 * its built-in variables, subroutines, actions and aggregating functions,
 * each with the kind of identifier it is (libdtrace's _dtrace_globals[]
 * in dt_open.c, one row per name).
 *
 * The kind decides how a name may be used, whatever dscope does with it:
 * a function is called, never read as a value ("trace(strlen)" is
 * D_IDENT_BADREF, "function 'strlen' may not be referenced as scalar");
 * args[] and uregs[] are indexed; and no declaration, inline or
 * enumerator may take any of these names (D_DECL_IDRED, "built-in
 * identifier redeclared").  Whether dscope supports a row, and how, is
 * the business of the tables that implement it (sema.c's built-in
 * variables, funcs.h's functions, aggfunc.h).
 */
#ifndef DSCOPE_D_GLOBALS_H
#define DSCOPE_D_GLOBALS_H

enum dglobal_kind {
	DG_NONE,	/* not one of DTrace's identifiers */
	DG_SCALAR,	/* a variable: pid, execname, curthread, arg0 */
	DG_ARRAY,	/* an array indexed by a constant: args[], uregs[] */
	DG_FUNC,	/* a subroutine, which has a value: strlen() */
	DG_ACTFUNC,	/* an action (a "tracing function"): printf() */
	DG_AGGFUNC,	/* an aggregating function: count() */
	DG_SCOPE,	/* self and this, the scopes of -> variables */
};

struct dglobal {
	const char *name;
	enum dglobal_kind kind;
};

/* The kind of DTrace's identifier name (its functions are funcs.h's
 * rows), or DG_NONE if DTrace defines none. */
enum dglobal_kind dglobal_kind(const char *name);

/* How DTrace's messages name a kind: "function", "associative array". */
const char *dglobal_kind_name(enum dglobal_kind kind);

#endif
