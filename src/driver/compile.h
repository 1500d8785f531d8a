/*
 * compile.h -- the compile driver: D sources in, a spec out.
 *
 *   parse each source -> apply its pragmas -> match every clause's probe
 *   descriptions against the catalog -> sema on each clause -> group the
 *   clauses by attachment point -> cg one program per point -> the spec
 *
 * Errors stop at the first, with its DTrace tag, in *d; res->source says
 * which source it was in.
 */
#ifndef DSCOPE_COMPILE_H
#define DSCOPE_COMPILE_H

#include <stdbool.h>

#include "base/arena.h"
#include "base/diag.h"
#include "spec/options.h"
#include "spec/spec.h"

struct catalog;

struct compile_source {
	const char *text;
	const char *filename;	/* NULL for -n text */
	bool probe_only;	/* -n: a description alone is a clause */
};

struct compile_args {
	int argc;		/* macro arguments, argv[0] = $0 */
	char *const *argv;
	long target_pid;
	/* -x replay: the probes the trace recorded ("prov:mod:func:name"),
	 * the only ones its clauses match; NULL: not replaying */
	const char *const *recorded;
	int nrecorded;
	const char *replay_dir;	/* for messages */
};

struct compile_result {
	struct spec *spec;
	int source;		/* on error: which source failed */
	int *nprobes;		/* per source: probes its clauses matched */
};

/* Pragmas update *o as -x would. */
int compile_sources(struct arena *a, struct catalog *cat,
		    const struct compile_source *src, int nsrc,
		    const struct compile_args *args, struct options *o,
		    struct compile_result *res, struct diag *d);

#endif /* DSCOPE_COMPILE_H */
