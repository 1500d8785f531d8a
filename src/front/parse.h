/*
 * parse.h -- D source text to the tree of ast.h.
 *
 * parse_program() reads a whole D program -- clauses, top-level
 * declarations, pragmas -- and builds a struct program in the arena.  It
 * stops at the first error, as DTrace does: the error is in *d (tag,
 * message, line, column) and the result is NULL.  parse_program() sets up
 * its own setjmp and restores d->env before returning, so the caller
 * need not have one; any env the caller had is left as it was.
 *
 * What the parser does not do: resolve identifiers, check types, decide
 * whether a declaration makes sense.  That is sema's job.  The parser
 * only knows enough about types to tell a cast "(foo)x" from a
 * parenthesized expression, which needs the typedef names (the D builtins,
 * the program's own typedefs and, through is_type, the kernel's).
 */
#ifndef DSCOPE_PARSE_H
#define DSCOPE_PARSE_H

#include <stdbool.h>

#include "base/arena.h"
#include "front/ast.h"
#include "base/diag.h"

struct parse_opts {
	const char *filename;	/* for messages; "" for -n text */
	int argc;		/* macro arguments: argv[0] is $0, the script */
	char *const *argv;	/* name, argv[1..] are $1.. */
	long target_pid;	/* $target; 0 if none */
	bool probe_only;	/* -n/-P/-m/-f text: a clause needs no body */
	bool defaultargs;	/* unset $N expands to 0, $$N to "" */
	bool allow_empty;	/* -xempty: no D_EMPTY for an empty program */
	bool is_library;	/* a library may "#pragma D depends_on library" */
	/* Optional: is this identifier a type name known outside the
	 * program (kernel BTF typedefs)?  Consulted only when the D
	 * builtin names and the program's typedefs do not answer. */
	bool (*is_type)(void *arg, const char *name);
	void *is_type_arg;
};

/* Parse a whole D program.  NULL with *d filled on error (see above). */
struct program *parse_program(struct arena *a, const char *text,
			      const struct parse_opts *o, struct diag *d);

/* Parse one probe description "prov:mod:func:name" (fewer fields allowed,
 * filled from the right: "BEGIN" is the name, "read:entry" func and name)
 * into *pd.  0, or -1 if the text is not one well-formed description. */
int parse_probe_desc(struct arena *a, const char *text, struct probe_desc *pd);

#endif /* DSCOPE_PARSE_H */
