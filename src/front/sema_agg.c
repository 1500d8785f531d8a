/*
 * sema_agg.c -- aggregations: the aggregating functions, their keys, and
 * the actions that take aggregations (printa, clear, trunc).
 *
 * An aggregation is declared by its first use; every later use must have
 * the same function and the same key signature (DTrace's D_AGG_REDEF).
 */
#include <string.h>

#include "front/sema_impl.h"

static const struct {
	const char *name;
	enum agg_func func;
	int nargs;		/* value arguments */
	uint32_t nwords;	/* value words (aggprint.h layout) */
} agg_funcs[] = {
	{ "count", AGG_COUNT, 0, 1 }, { "sum", AGG_SUM, 1, 1 },
	{ "min", AGG_MIN, 1, 1 },     { "max", AGG_MAX, 1, 1 },
	{ "avg", AGG_AVG, 1, 2 },
};

int sema_find_agg(struct sema *s, const char *name)
{
	for (int i = 0; i < s->spec->naggs; i++)
		if (strcmp(s->spec->aggs[i].name, name) == 0)
			return i;
	return -1;
}

static uint32_t field_size(const struct dtype *t)
{
	return t->kind == T_STRING ? (t->size + 7) & ~7u : 8;
}

static int new_agg(struct sema *s, struct node *st, int f)
{
	struct spec *sp = s->spec;
	struct spec_agg *ag = ARENA_PUSH(s->a, sp->aggs, sp->naggs, s->aggs_cap);

	ag->name = st->agg->str;
	ag->func = agg_funcs[f].func;
	ag->nwords = agg_funcs[f].nwords;
	ag->nkeys = st->args.n;
	ag->keys = arena_alloc(s->a, sizeof(*ag->keys) * (size_t)(ag->nkeys + 1));
	for (int i = 0; i < ag->nkeys; i++) {
		struct dtype t = st->args.v[i]->type;

		ag->keys[i].off = ag->key_size;
		ag->keys[i].type = t;
		ag->key_size += field_size(&t);
	}
	if (ag->key_size == 0)
		ag->key_size = 8;
	ag->map = -1;
	return sp->naggs - 1;
}

static void check_agg_keys(struct sema *s, struct node *st, struct spec_agg *ag)
{
	if (ag->nkeys != st->args.n)
		diag_fail(s->d, st->line, st->col, "D_AGG_REDEF",
			  "@%s has %d dimension%s but used with %d", ag->name,
			  ag->nkeys, ag->nkeys == 1 ? "" : "s", st->args.n);
	for (int i = 0; i < ag->nkeys; i++) {
		const struct dtype *t = &st->args.v[i]->type;
		bool str = t->kind == T_STRING;

		if (str != (ag->keys[i].type.kind == T_STRING))
			diag_fail(s->d, st->line, st->col, "D_AGG_REDEF",
				  "@%s key #%d is declared as %s, used as %s",
				  ag->name, i + 1, ag->keys[i].type.name, t->name);
		if (str && t->size > ag->keys[i].type.size)
			diag_fail(s->d, st->line, st->col, "D_AGG_REDEF",
				  "@%s key #%d bound %u is smaller than %u",
				  ag->name, i + 1, ag->keys[i].type.size, t->size);
	}
}

void sema_agg_stmt(struct sema *s, struct node *st)
{
	struct node *call = st->call;
	int f = -1;

	for (size_t i = 0; i < sizeof(agg_funcs) / sizeof(agg_funcs[0]); i++)
		if (strcmp(agg_funcs[i].name, call->str) == 0)
			f = (int)i;
	if (f < 0)
		diag_fail(s->d, call->line, call->col, "D_AGG_FUNC",
			  "%s( ) may not be used as an aggregating function",
			  call->str);
	if (call->args.n != agg_funcs[f].nargs)
		diag_fail(s->d, call->line, call->col, "D_PROTO_LEN",
			  "%s( ) prototype mismatch: %d arg%s passed, %d expected",
			  call->str, call->args.n, call->args.n == 1 ? "" : "s",
			  agg_funcs[f].nargs);
	for (int i = 0; i < call->args.n; i++) {
		sema_expr(s, call->args.v[i]);
		if (!type_is_int(&call->args.v[i]->type))
			diag_fail(s->d, call->line, call->col, "D_AGG_SCALAR",
				  "%s( ) requires a scalar argument", call->str);
	}
	for (int i = 0; i < st->args.n; i++)
		sema_expr(s, st->args.v[i]);

	int ai = sema_find_agg(s, st->agg->str);

	if (ai < 0) {
		ai = new_agg(s, st, f);
	} else {
		struct spec_agg *ag = &s->spec->aggs[ai];

		if (ag->func != agg_funcs[f].func)
			diag_fail(s->d, st->line, st->col, "D_AGG_REDEF",
				  "aggregation redefined: @%s", ag->name);
		check_agg_keys(s, st, ag);
	}
	st->sym = ai;
	st->symkind = SYM_AGG;
}

void sema_agg_ref(struct sema *s, struct node *n)
{
	if (n->kind != N_AGG)
		diag_fail(s->d, n->line, n->col, "D_PRINTA_AGGARG",
			  "printa( ) argument #%d is incompatible with prototype:\n"
			  "\tprototype: aggregation\n\t argument: %s", 1,
			  n->type.name ? n->type.name : "expression");
	int ai = sema_find_agg(s, n->str);

	if (ai < 0)
		diag_fail(s->d, n->line, n->col, "D_AGG_NULL",
			  "aggregation @%s is not defined", n->str);
	n->symkind = SYM_AGG;
	n->sym = ai;
	n->type.kind = T_AGG;
}

static void printa_call(struct sema *s, struct node *n)
{
	int first = 0;

	if (n->args.n >= 1 && n->args.v[0]->kind == N_STR) {
		struct fmt *f;

		fmt_parse(s->a, n->args.v[0]->str, &f, s->d, n->line, n->col);
		n->cg = f;
		first = 1;
	}
	if (n->args.n <= first)
		diag_fail(s->d, n->line, n->col, "D_PRINTA_PROTO",
			  "printa( ) prototype mismatch: too few arguments");
	for (int i = first; i < n->args.n; i++)
		sema_agg_ref(s, n->args.v[i]);
}


bool sema_agg_action(struct sema *s, struct node *n)
{
	const char *f = n->str;

	if (strcmp(f, "printa") == 0) {
		printa_call(s, n);
	} else if (strcmp(f, "clear") == 0 || strcmp(f, "trunc") == 0) {
		sema_check_nargs(s, n, 1, f[0] == 't' ? 2 : 1);
		sema_agg_ref(s, n->args.v[0]);
		if (n->args.n == 2)
			sema_expr(s, n->args.v[1]);
	} else {
		return false;
	}
	n->type.kind = T_VOID;
	return true;
}
