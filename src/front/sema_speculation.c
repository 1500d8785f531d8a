/*
 * sema_speculation.c -- speculate(), commit(), discard() and DTrace's
 * rules for where they may stand in a clause.
 *
 * The rules are DTrace's (libdtrace's clause flags), checked over the
 * clause's actions in source order, by the rows' flags (d/funcs.h: which
 * actions record data, which are destructive):
 *  - speculate() comes before any data-recording action, at most once,
 *    and not after commit();
 *  - after speculate(): no aggregation, no destructive action, no exit();
 *  - commit() comes before any data-recording action or aggregation, and
 *    nothing data-recording or aggregating follows it;
 *  - discard() goes anywhere.
 * Assignments and other expression statements record nothing and are
 * free to stand anywhere.  Several commit() in one clause are allowed, as
 * Oracle's DTrace allows them.
 */
#include <string.h>

#include "front/sema_impl.h"

enum {
	CF_SPECULATE = 1,	/* speculate() seen */
	CF_COMMIT = 2,		/* commit() seen */
	CF_DATAREC = 4,		/* data recorded outside a speculation */
	CF_AGG = 8,		/* an aggregation */
};

static void fail(struct sema *s, const struct node *n, const char *tag,
		 const char *msg)
{
	diag_fail(s->d, n->line, n->col, tag, "%s", msg);
}

static void check_call(struct sema *s, const struct node *n, int *cf)
{
	const struct dfunc_row *row = dfunc_row(n->fn);
	unsigned flags = row ? row->flags : 0;

	if (n->fn == DF_SPECULATE) {
		if (*cf & CF_SPECULATE)
			fail(s, n, "D_SPEC_SPEC",
			     "speculate( ) may not follow speculate( )");
		if (*cf & CF_COMMIT)
			fail(s, n, "D_SPEC_COMM",
			     "speculate( ) may not follow commit( )");
		if (*cf & (CF_DATAREC | CF_AGG))
			fail(s, n, "D_SPEC_DREC", "speculate( ) may not follow "
			     "data-recording action(s)");
		*cf |= CF_SPECULATE;
	} else if (n->fn == DF_COMMIT) {
		if (*cf & (CF_DATAREC | CF_AGG))
			fail(s, n, "D_COMM_DREC", "commit( ) may not follow "
			     "data-recording action(s)");
		*cf |= CF_COMMIT;
	} else if (flags & DFF_DESTRUCTIVE) {
		if (*cf & CF_SPECULATE)
			fail(s, n, "D_ACT_SPEC",
			     "destructive actions may not follow speculate( )");
	} else if (flags & DFF_DATAREC) {
		if ((*cf & CF_SPECULATE) && n->fn == DF_EXIT)
			fail(s, n, "D_EXIT_SPEC",
			     "exit( ) may not follow speculate( )");
		if (*cf & CF_COMMIT)
			fail(s, n, "D_DREC_COMM",
			     "data-recording actions may not follow commit( )");
		if (!(*cf & CF_SPECULATE))
			*cf |= CF_DATAREC;
	}
}

static void check_stmts(struct sema *s, const struct node_list *l, int *cf)
{
	for (int i = 0; i < l->n; i++) {
		const struct node *n = l->v[i];

		switch (n->kind) {
		case S_EXPR:
			if (n->a->kind == N_CALL)
				check_call(s, n->a, cf);
			break;
		case S_AGG:
			if (*cf & CF_COMMIT)
				fail(s, n, "D_AGG_COMM", "aggregating actions may "
				     "not follow commit( )");
			if (*cf & CF_SPECULATE)
				fail(s, n, "D_AGG_SPEC", "aggregating actions may "
				     "not follow speculate( )");
			*cf |= CF_AGG;
			break;
		case S_IF:
		case S_BLOCK:
			check_stmts(s, &n->body, cf);
			check_stmts(s, &n->else_body, cf);
			break;
		default:
			break;
		}
	}
}

void sema_speculation_clause(struct sema *s, struct clause *c)
{
	int cf = 0;

	check_stmts(s, &c->body, &cf);
}

bool sema_speculation_action(struct sema *s, struct node *n)
{
	const char *f = n->str;

	if (n->fn != DF_SPECULATE && n->fn != DF_COMMIT && n->fn != DF_DISCARD)
		return false;
	sema_check_nargs(s, n, 1, 1);
	struct node *id = n->args.v[0];

	sema_expr(s, id);
	if (!type_is_int(&id->type))
		diag_fail(s->d, id->line, id->col, "D_PROTO_ARG",
			  "%s( ) argument #1 is incompatible with prototype:\n"
			  "\tprototype: int\n\t argument: %s", f,
			  id->type.kind == T_STRING ? "string"
			  : id->type.name ? id->type.name : "non-integer");
	return true;
}
