/*
 * globals.c -- DTrace's predefined identifiers, as dt_open.c lists them
 * (see globals.h): the variables here, the functions in funcs.c.
 * ORDER: by name, for bsearch.
 */
#include "d/globals.h"
#include "d/funcs.h"

#include <stdlib.h>
#include <string.h>

static const struct dglobal globals[] = {
	{ "arg0", DG_SCALAR },
	{ "arg1", DG_SCALAR },
	{ "arg2", DG_SCALAR },
	{ "arg3", DG_SCALAR },
	{ "arg4", DG_SCALAR },
	{ "arg5", DG_SCALAR },
	{ "arg6", DG_SCALAR },
	{ "arg7", DG_SCALAR },
	{ "arg8", DG_SCALAR },
	{ "arg9", DG_SCALAR },
	{ "args", DG_ARRAY },
	{ "caller", DG_SCALAR },
	{ "curcpu", DG_SCALAR },
	{ "curthread", DG_SCALAR },
	{ "epid", DG_SCALAR },
	{ "errno", DG_SCALAR },
	{ "execname", DG_SCALAR },
	{ "gid", DG_SCALAR },
	{ "id", DG_SCALAR },
	{ "ipl", DG_SCALAR },
	{ "pid", DG_SCALAR },
	{ "ppid", DG_SCALAR },
	{ "probefunc", DG_SCALAR },
	{ "probemod", DG_SCALAR },
	{ "probename", DG_SCALAR },
	{ "probeprov", DG_SCALAR },
	{ "self", DG_SCOPE },
	{ "stackdepth", DG_SCALAR },
	{ "this", DG_SCOPE },
	{ "tid", DG_SCALAR },
	{ "timestamp", DG_SCALAR },
	{ "ucaller", DG_SCALAR },
	{ "uid", DG_SCALAR },
	{ "uregs", DG_ARRAY },
	{ "ustackdepth", DG_SCALAR },
	{ "vtimestamp", DG_SCALAR },
	{ "walltimestamp", DG_SCALAR },
};

static int by_name(const void *key, const void *row)
{
	return strcmp(key, ((const struct dglobal *)row)->name);
}

enum dglobal_kind dglobal_kind(const char *name)
{
	const struct dglobal *g;
	enum dfunc f = dfunc_lookup(name);

	if (dfunc_is_dtrace(f)) {
		enum dfunc_kind k = dfunc_row(f)->kind;

		return k == DFK_AGG ? DG_AGGFUNC : k == DFK_ACTION ? DG_ACTFUNC
								  : DG_FUNC;
	}
	g = bsearch(name, globals, sizeof(globals) / sizeof(globals[0]),
		    sizeof(globals[0]), by_name);
	return g ? g->kind : DG_NONE;
}

const char *dglobal_kind_name(enum dglobal_kind kind)
{
	static const char *const names[] = {
		[DG_NONE] = "identifier",
		[DG_SCALAR] = "scalar",
		[DG_ARRAY] = "associative array",
		[DG_FUNC] = "function",
		[DG_ACTFUNC] = "tracing function",
		[DG_AGGFUNC] = "aggregating function",
		[DG_SCOPE] = "pointer",
	};

	return names[kind];
}
