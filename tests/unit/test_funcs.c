#include "test.h"

#include "d/funcs.h"
#include "d/globals.h"

/* Each id has its row, found by its name; the rows are in name order. */
TEST(funcs_rows_complete_and_ordered)
{
	for (int i = DF_NONE + 1; i < DF_NFUNCS; i++) {
		const struct dfunc_row *r = dfunc_row((enum dfunc)i);

		CHECK(r && r->name && r->proto);
		if (!r || !r->name)
			continue;
		CHECK(dfunc_lookup(r->name) == (enum dfunc)i);
		if (i > DF_NONE + 1)
			CHECK(strcmp(dfunc_row((enum dfunc)(i - 1))->name,
				     r->name) < 0);
		/* what dscope does: a note where it differs, a tag and a
		 * sentence where it refuses */
		CHECK((r->support == DFS_YES) == (r->note == NULL));
		CHECK((r->support == DFS_REFUSED) == (r->tag != NULL));
	}
	CHECK(dfunc_row(DF_NONE) == NULL);
	CHECK(dfunc_lookup("no_such_function") == DF_NONE);
	CHECK(dfunc_lookup(NULL) == DF_NONE);
}

/* DTrace's destructive functions (the DTRACEACT_*_DESTRUCTIVE actions,
 * and copyout, copyoutstr) and nothing else. */
TEST(funcs_destructive_as_dtrace)
{
	static const char *const destructive[] = {
		"breakpoint", "chill", "copyout", "copyoutstr", "freopen",
		"panic", "raise", "stop", "system",
	};
	int n = 0;

	for (int i = DF_NONE + 1; i < DF_NFUNCS; i++)
		n += (dfunc_row((enum dfunc)i)->flags & DFF_DESTRUCTIVE) != 0;
	CHECK(n == (int)(sizeof(destructive) / sizeof(destructive[0])));
	for (size_t i = 0; i < sizeof(destructive) / sizeof(destructive[0]); i++)
		CHECK(dfunc_row(dfunc_lookup(destructive[i]))->flags &
		      DFF_DESTRUCTIVE);
}

/* The identifier kinds come from the rows; dscope's private functions
 * are no identifiers of DTrace's. */
TEST(funcs_identifier_kinds)
{
	CHECK(dglobal_kind("strlen") == DG_FUNC);
	CHECK(dglobal_kind("printf") == DG_ACTFUNC);
	CHECK(dglobal_kind("ustack") == DG_ACTFUNC);
	CHECK(dglobal_kind("llquantize") == DG_AGGFUNC);
	CHECK(dglobal_kind("pid") == DG_SCALAR);
	CHECK(dglobal_kind("args") == DG_ARRAY);
	CHECK(dglobal_kind("__psargs") == DG_NONE);
	CHECK(dglobal_kind("cgroup_path") == DG_NONE);
	CHECK(dglobal_kind("no_such_name") == DG_NONE);
	CHECK(dfunc_is_dtrace(DF_TOUPPER) && !dfunc_is_dtrace(DF_PSARGS));
}
