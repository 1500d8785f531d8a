/*
 * ast.c -- the small constructors of the tree, and the names of its kinds.
 *
 * Nodes are created zeroed, so every optional field starts empty: a node
 * list with n == 0, NULL operands, T_NONE type.  Lists grow by doubling
 * into fresh arena memory; the old array is simply abandoned to the arena.
 */
#include "front/ast.h"

#include <string.h>

#include "base/arena.h"

const char *const node_kind_name[] = {	/* ORDER NODE */
	"N_INT", "N_STR", "N_IDENT", "N_AGG", "N_UNARY", "N_BINARY",
	"N_TERNARY", "N_ASSIGN", "N_INCDEC", "N_CALL", "N_INDEX", "N_MEMBER",
	"N_CAST", "N_SIZEOF", "N_OFFSETOF", "N_STRINGOF", "N_XLATE",
	"S_EXPR", "S_AGG", "S_IF", "S_DECL", "S_BLOCK",
};

_Static_assert(sizeof(node_kind_name) / sizeof(node_kind_name[0]) ==
	       S_BLOCK + 1, "node_kind_name[] out of step with enum node_kind");

struct node *node_new(struct arena *a, enum node_kind kind, int line, int col)
{
	struct node *n = arena_alloc(a, sizeof(*n));

	n->kind = kind;
	n->line = line;
	n->col = col;
	return n;
}

void node_list_push(struct arena *a, struct node_list *l, struct node *n)
{
	if (l->n == l->cap) {
		int cap = l->cap ? 2 * l->cap : 4;
		struct node **v = arena_alloc(a, cap * sizeof(*v));

		if (l->n)
			memcpy(v, l->v, l->n * sizeof(*v));
		l->v = v;
		l->cap = cap;
	}
	l->v[l->n++] = n;
}

struct node *ast_expr_stmt(struct arena *a, struct node *e)
{
	struct node *lhs = e->a, *s;

	if (e->kind == N_ASSIGN && !e->compound &&
	    (lhs->kind == N_AGG || (lhs->kind == N_INDEX && lhs->a->kind == N_AGG))) {
		s = node_new(a, S_AGG, e->line, e->col);
		s->agg = lhs->kind == N_AGG ? lhs : lhs->a;
		if (lhs->kind == N_INDEX)
			s->args = lhs->args;
		s->call = e->b;
		return s;
	}
	s = node_new(a, S_EXPR, e->line, e->col);
	s->a = e;
	return s;
}

static void list_clone(struct arena *a, struct node_list *l)
{
	struct node_list from = *l;

	*l = (struct node_list){ 0 };
	for (int i = 0; i < from.n; i++)
		node_list_push(a, l, node_clone(a, from.v[i]));
}

struct node *node_clone(struct arena *a, const struct node *n)
{
	if (!n)
		return NULL;
	struct node *c = arena_alloc(a, sizeof(*c));

	*c = *n;
	c->a = node_clone(a, n->a);
	c->b = node_clone(a, n->b);
	c->c = node_clone(a, n->c);
	c->agg = node_clone(a, n->agg);
	c->call = node_clone(a, n->call);
	list_clone(a, &c->args);
	list_clone(a, &c->body);
	list_clone(a, &c->else_body);
	return c;
}

struct node_list node_list_clone(struct arena *a, const struct node_list *l)
{
	struct node_list c = *l;

	list_clone(a, &c);
	return c;
}

unsigned node_list_args_used(const struct node_list *l)
{
	unsigned used = 0;

	for (int i = 0; i < l->n; i++)
		used |= node_args_used(l->v[i]);
	return used;
}

unsigned node_args_used(const struct node *n)
{
	if (!n)
		return 0;
	unsigned used = node_args_used(n->a) | node_args_used(n->b) |
			node_args_used(n->c) | node_args_used(n->agg) |
			node_args_used(n->call) | node_list_args_used(&n->args) |
			node_list_args_used(&n->body) | node_list_args_used(&n->else_body);

	if (n->kind == N_INDEX && n->a && n->a->kind == N_IDENT &&
	    strcmp(n->a->str, "args") == 0) {
		const struct node *ix = n->args.n == 1 ? n->args.v[0] : NULL;

		used |= ix && ix->kind == N_INT && ix->ival >= 0 && ix->ival < 10
			? 1u << ix->ival : ARGS_USED_ANY;
	}
	return used;
}
