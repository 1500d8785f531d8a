/*
 * sema_alloca.c -- a variable holds alloca() pointers or other ones,
 * never both (DTrace's D_ALLOCA_INCOMPAT).
 *
 * DTrace keeps alloca() memory at an offset it must know when a pointer
 * is loaded from a variable, so it taints (dtrace-utils' dt_parser.c,
 * dt_cook_taint_alloca): a value is alloca-derived if it comes from
 * alloca() or copyin(), through casts, pointer arithmetic, ?: with both
 * branches so, or a variable an alloca-derived value was stored in.  A
 * variable that takes such a value becomes alloca; one that takes any
 * other value but a literal 0 (or a string, copied by value) becomes
 * non-alloca.  As each clause is compiled in program order
 * (dt_cg_store_var), a store the clause makes into a variable that is
 * alloca by then, and non-alloca by this clause or an earlier one, fails
 * at the clause's line: "a: cannot reuse the same identifier for both
 * alloca and non-alloca allocations".
 *
 * The variables are told apart by their scope and name: globals, self->,
 * this-> and associative arrays (DTrace's scalar and array identifiers).
 */
#include <string.h>

#include "front/sema_impl.h"

struct alloca_var {
	char scope;		/* 'g' global, 's' self->, 't' this->, 'a' array */
	const char *name;
	bool alloca, nonalloca;
};

/* One store of a clause: the variable, and whether the stored node was
 * alloca as DTrace cooked it (the variable's taint then). */
struct alloca_store {
	int var;
	bool alloca;
};

struct alloca_state {
	struct alloca_var *vars;
	int nvars, vars_cap;
	struct alloca_store *stores;	/* the current clause's */
	int nstores, stores_cap;
};

/* The variable an lvalue names, as scope and name; false if none. */
static bool var_of(const struct node *n, char *scope, const char **name)
{
	if (n->kind == N_IDENT) {
		*scope = 'g';
		*name = n->str;
		return true;
	}
	if (n->kind == N_MEMBER && n->a->kind == N_IDENT &&
	    (strcmp(n->a->str, "self") == 0 || strcmp(n->a->str, "this") == 0)) {
		*scope = n->a->str[0];
		*name = n->str;
		return true;
	}
	if (n->kind == N_INDEX && n->a->kind == N_IDENT) {
		*scope = 'a';
		*name = n->a->str;
		return true;
	}
	return false;
}

static struct alloca_state *state(struct sema *s)
{
	if (!s->alloca)
		s->alloca = arena_alloc(s->a, sizeof(*s->alloca));
	return s->alloca;
}

/* The variable's index, made if new (make) or -1. */
static int find_var(struct sema *s, const struct node *n, bool make)
{
	struct alloca_state *st = state(s);
	const char *name;
	char scope;

	if (!var_of(n, &scope, &name))
		return -1;
	for (int i = 0; i < st->nvars; i++)
		if (st->vars[i].scope == scope && strcmp(st->vars[i].name, name) == 0)
			return i;
	if (!make)
		return -1;
	*ARENA_PUSH(s->a, st->vars, st->nvars, st->vars_cap) =
		(struct alloca_var){ .scope = scope, .name = name };
	return st->nvars - 1;
}

/* Is the value of n alloca-derived (DT_NF_ALLOCA)? */
static bool is_alloca(struct sema *s, const struct node *n)
{
	int v;

	switch (n->kind) {
	case N_CALL:
		return n->fn == DF_ALLOCA || n->fn == DF_COPYIN;
	case N_CAST:
		return is_alloca(s, n->a);
	case N_BINARY:
		return (n->op == '+' || n->op == '-') && n->type.kind == T_PTR &&
		       (is_alloca(s, n->a) || is_alloca(s, n->b));
	case N_TERNARY:
		return is_alloca(s, n->b) && is_alloca(s, n->c);
	case N_ASSIGN:
		return is_alloca(s, n->a);
	case N_IDENT:
	case N_MEMBER:
	case N_INDEX:
		v = find_var(s, n, false);
		return v >= 0 && state(s)->vars[v].alloca;
	default:
		return false;
	}
}

void sema_alloca_store(struct sema *s, const struct node *lhs,
		       const struct node *rhs)
{
	struct alloca_state *st = state(s);
	int v = find_var(s, lhs, true);

	if (v < 0)
		return;
	if (is_alloca(s, rhs) && rhs->type.kind != T_STRING)
		st->vars[v].alloca = true;
	else if (!(rhs->kind == N_INT && rhs->ival == 0))
		st->vars[v].nonalloca = true;
	*ARENA_PUSH(s->a, st->stores, st->nstores, st->stores_cap) =
		(struct alloca_store){ v, st->vars[v].alloca };
}

void sema_alloca_clause_begin(struct sema *s)
{
	state(s)->nstores = 0;
}

void sema_alloca_clause_end(struct sema *s, const struct clause *c)
{
	struct alloca_state *st = state(s);

	for (int i = 0; i < st->nstores; i++) {
		const struct alloca_var *var = &st->vars[st->stores[i].var];

		if (st->stores[i].alloca && var->nonalloca)
			diag_fail(s->d, c->line, c->col, "D_ALLOCA_INCOMPAT",
				  "%s: cannot reuse the same identifier for both "
				  "alloca and non-alloca allocations", var->name);
	}
	st->nstores = 0;
}
