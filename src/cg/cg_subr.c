/*
 * cg_subr.c -- D subroutines in BPF.
 */
#include "cg/cg_impl.h"

struct val cg_subr_call(struct cg *g, struct node *n)
{
	diag_fail(g->d, n->line, n->col, "D_FUNC_UNDEF",
		  "subroutine %s( ) cannot be compiled yet", n->str);
}
