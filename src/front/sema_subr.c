/*
 * sema_subr.c -- D subroutines: argument checks and result types.
 */
#include <string.h>

#include "front/sema_impl.h"

void sema_subr_call(struct sema *s, struct node *n, bool as_stmt)
{
	if (!n->str)
		diag_fail(s->d, n->line, n->col, "D_FUNC_IDENT",
			  "function designator is not of function type");
	if (as_stmt || 1)
		diag_fail(s->d, n->line, n->col, "D_FUNC_UNDEF",
			  "failed to resolve %s: Unknown function name", n->str);
}
