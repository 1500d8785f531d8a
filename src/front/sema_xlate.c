/*
 * sema_xlate.c -- translators, inline arrays and the D library.
 *
 * DTrace's stable views of kernel data (psinfo_t, lwpsinfo_t, fileinfo_t,
 * curpsinfo, fds[]) are ordinary D: translators and inlines declared in a
 * library that every program sees (dlib.c).  A translator is a set of
 * member expressions over one input; `xlate <T> (e).m` is the expression
 * of member m with the input replaced by e.  Sema does that replacement on
 * the tree -- it clones the member's expression with the input name bound
 * to a clone of e, types the clone, and puts it in place of the member
 * access -- so cg never sees a translator, only the expression it stands
 * for.  Inline arrays (inline int f[int x] = x + 1) work the same way,
 * with their parameters bound to the subscripts.
 */
#include <string.h>

#include "front/ctype.h"
#include "front/sema_impl.h"

#include "d/globals.h"

struct xlator {
	struct top_decl *td;
	struct dtype out, in;
	bool resolved;		/* out and in are known (library ones wait) */
};

/* The D library's translators name kernel types: resolving them loads
 * the kernel's BTF (megabytes), so they are resolved only when an xlate
 * needs them, and a program that uses none starts without it. */
static void resolve_types(struct sema *s, struct xlator *x)
{
	if (x->resolved)
		return;
	x->resolved = true;
	ctypes_resolve_decl(s->types, x->td->out_type, NULL, s->d, &x->out);
	ctypes_resolve_decl(s->types, x->td->in_type, NULL, s->d, &x->in);
}

/* ---- cloning with substitution ---- */

struct binding {
	const char *name;
	const struct node *to;
};

static struct node *clone(struct sema *s, const struct node *n,
			  const struct binding *b, int nb);

static void clone_list(struct sema *s, struct node_list *dst,
		       const struct node_list *src, const struct binding *b,
		       int nb)
{
	memset(dst, 0, sizeof(*dst));
	for (int i = 0; i < src->n; i++)
		node_list_push(s->a, dst, clone(s, src->v[i], b, nb));
}

/* A fresh, untyped copy of n, with each identifier named in b replaced by
 * a copy of what it is bound to. */
static struct node *clone(struct sema *s, const struct node *n,
			  const struct binding *b, int nb)
{
	if (!n)
		return NULL;
	if (n->kind == N_IDENT)
		for (int i = 0; i < nb; i++)
			if (strcmp(n->str, b[i].name) == 0)
				return clone(s, b[i].to, NULL, 0);
	struct node *c = arena_alloc(s->a, sizeof(*c));

	*c = *n;
	if (n->kind != N_INT || n->symkind) {	/* keep literals' types */
		memset(&c->type, 0, sizeof(c->type));
		if (n->kind == N_INT)
			c->type = n->type;
	}
	c->symkind = SYM_NONE;
	c->sym = 0;
	c->cg = NULL;
	c->a = clone(s, n->a, b, nb);
	c->b = clone(s, n->b, b, nb);
	c->c = clone(s, n->c, b, nb);
	c->agg = clone(s, n->agg, b, nb);
	c->call = clone(s, n->call, b, nb);
	clone_list(s, &c->args, &n->args, b, nb);
	clone_list(s, &c->body, &n->body, b, nb);
	clone_list(s, &c->else_body, &n->else_body, b, nb);
	return c;
}

/* ---- translators ---- */

static struct xlator *find_xlator(struct sema *s, const struct dtype *out,
				  const struct dtype *in)
{
	struct xlator *best = NULL;

	for (int i = s->nxlators - 1; i >= 0; i--) {
		struct xlator *x = s->xlators[i];

		resolve_types(s, x);
		if (!dtype_equal(&x->out, out))
			continue;
		if (dtype_equal(&x->in, in))
			return x;
		/* an integer input takes any integer; a pointer any pointer
		 * to the same type or an integer (DTrace's casting rules) */
		if ((x->in.kind == T_INT && in->kind == T_INT) ||
		    (x->in.kind == T_PTR && (in->kind == T_INT ||
					     (in->kind == T_PTR && in->ct &&
					      in->ct->elem.kind == T_VOID))))
			best = best ? best : x;
	}
	return best;
}

/* A stand-in for the translator's input, of its type, never evaluated:
 * (T)0, or *(T *)0 for a struct input. */
static struct node *input_stand_in(struct sema *s, struct xlator *x)
{
	const struct top_decl *td = x->td;
	struct node *zero = node_new(s->a, N_INT, td->line, td->col);
	struct node *c = node_new(s->a, N_CAST, td->line, td->col);
	struct decl_type *dt = arena_alloc(s->a, sizeof(*dt));

	zero->type = type_int(4, true);
	*dt = *td->in_type;
	c->a = zero;
	c->decl_type = dt;
	if (x->in.kind != T_STRUCT)
		return c;
	struct node *star = node_new(s->a, N_UNARY, td->line, td->col);

	dt->text = arena_printf(s->a, "%s *", td->in_type->text);
	star->op = '*';
	star->a = c;
	return star;
}

/* dt_node_is_argcompat, as a translator member and its expression need
 * it: integers, strings (or char arrays and pointers), pointers, or the
 * same struct */
static bool member_compat(const struct dtype *m, const struct node *e)
{
	const struct dtype *t = &e->type;
	bool ms = m->kind == T_STRING || sema_is_char_ptr(m);
	bool es = t->kind == T_STRING || sema_is_char_ptr(t);

	if (m->kind == T_INT && t->kind == T_INT)
		return true;
	if (ms && es)
		return true;
	if (m->kind == T_PTR)
		return t->kind == T_PTR || (e->kind == N_INT && e->ival == 0);
	return dtype_equal(m, t);
}

/* Each member's expression typed over a stand-in input, as dt_node_xlator
 * cooks them: an error in one is the declaration's. */
static void check_members(struct sema *s, struct xlator *x)
{
	const struct top_decl *td = x->td;

	for (int i = 0; i < td->members.n; i++) {
		struct node *m = td->members.v[i];
		struct binding b = { td->in_name, input_stand_in(s, x) };
		struct node *e = clone(s, m->b, &b, 1);
		struct cmember cm;

		if (!ctype_member(&x->out, m->a->str, &cm))
			diag_fail(s->d, td->end_line, 0, "D_XLATE_MEMB",
				  "translator member %s is not a member of %s",
				  m->a->str, dtype_name(&x->out));
		sema_expr(s, e);
		if (!member_compat(&cm.type, e))
			diag_fail(s->d, td->end_line, 0, "D_XLATE_INCOMPAT",
				  "translator member %s definition uses "
				  "incompatible types: \"%s\" = \"%s\"",
				  m->a->str, dtype_name(&cm.type),
				  dtype_name(&e->type));
	}
}

void sema_xlator_decl(struct sema *s, struct top_decl *td)
{
	struct xlator *x = arena_alloc(s->a, sizeof(*x));

	x->td = td;
	if (s->in_library) {	/* checked when first used */
		*ARENA_PUSH(s->a, s->xlators, s->nxlators, s->xlators_cap) = x;
		return;
	}
	/* DTrace checks a translator when the parser reduces it, so its
	 * errors name the line of its closing brace (dt_node_xlator) */
	resolve_types(s, x);
	if (x->out.kind != T_STRUCT || !x->out.ct)
		diag_fail(s->d, td->end_line, 0, "D_XLATE_SOU",
			  "translator output type must be a struct or union");
	if (!x->out.ct->complete)
		diag_fail(s->d, td->end_line, 0, "D_XLATE_SOU",
			  "incomplete struct/union/enum %s",
			  dtype_name(&x->out));
	for (int i = 0; i < s->nxlators; i++) {
		struct xlator *o = s->xlators[i];

		/* the library's are resolved now only if they could clash */
		if (!o->resolved &&
		    strcmp(o->td->out_type->text, td->out_type->text) != 0)
			continue;
		resolve_types(s, o);
		if (dtype_equal(&o->out, &x->out) && dtype_equal(&o->in, &x->in))
			diag_fail(s->d, td->end_line, 0, "D_XLATE_REDECL",
				  "translator from %s to %s has already been "
				  "declared", dtype_name(&x->in),
				  dtype_name(&x->out));
	}
	check_members(s, x);
	*ARENA_PUSH(s->a, s->xlators, s->nxlators, s->xlators_cap) = x;
}

/* xlate <T> (e) and xlate <T *> (e) */
void sema_xlate(struct sema *s, struct node *n)
{
	struct dtype t;

	sema_expr(s, n->a);
	ctypes_resolve_decl(s->types, n->decl_type, NULL, s->d, &t);
	bool ptr = t.kind == T_PTR && t.ct;
	const struct dtype *out = ptr ? &t.ct->elem : &t;
	struct xlator *x = out->kind == T_STRUCT ? find_xlator(s, out, &n->a->type)
						 : NULL;

	if (!x)
		diag_fail(s->d, n->line, n->col, "D_XLATE_NONE",
			  "cannot translate from \"%s\" to \"%s\"",
			  dtype_name(&n->a->type), dtype_name(out));
	n->type = t;
	n->cg = x;
}

/* The N_XLATE a value comes from, looking through inlines. */
static const struct node *xlate_source(const struct node *n)
{
	while (n->kind == N_IDENT && n->symkind == SYM_INLINE)
		n = n->a;
	if (n->kind == N_XLATE)
		return n;
	return NULL;
}

bool sema_is_translated(const struct node *n)
{
	return xlate_source(n) != NULL;
}

bool sema_is_dynamic(const struct node *n)
{
	/* curcpu is the D library's translation here, DTrace's own
	 * variable of type cpuinfo_t * there */
	if (n->kind == N_IDENT && n->symkind == SYM_INLINE &&
	    dglobal_kind(n->str) == DG_SCALAR)
		return false;
	return sema_is_translated(n);
}

/* a.m or p->m where a or p is translated: becomes the member's
 * expression.  Returns false if n->a is not a translated value. */
bool sema_xlate_member(struct sema *s, struct node *n)
{
	const struct node *src = xlate_source(n->a);

	if (!src)
		return false;
	const struct xlator *x = src->cg;

	for (int i = 0; i < x->td->members.n; i++) {
		const struct node *m = x->td->members.v[i];

		if (strcmp(m->a->str, n->str) != 0)
			continue;
		struct binding b = { x->td->in_name, src->a };
		struct node *e = clone(s, m->b, &b, 1);
		int line = n->line, col = n->col;
		struct cmember cm;

		sema_expr(s, e);
		if (ctype_member(&x->out, n->str, &cm) &&
		    cm.type.kind == T_STRING && e->type.kind != T_STRING)
			e = sema_as_string(s, e);
		*n = *e;
		n->line = line;
		n->col = col;
		return true;
	}
	struct cmember cm;

	if (!ctype_member(&x->out, n->str, &cm))
		diag_fail(s->d, n->line, n->col, "D_MEMBER_NAME",
			  "%s is not a member of %s", n->str, dtype_name(&x->out));
	diag_fail(s->d, n->line, n->col, "D_XLATE_NOCONV",
		  "translator does not define conversion for member: %s",
		  n->str);
}

/*
 * An xlate whose value is taken whole -- "p = curpsinfo; p->pr_pid",
 * print(*curpsinfo) -- rather than one member at a time: DTrace expands
 * the translator (dt_cg_xlate_expand), every member converted into
 * scratch memory, and the value is that memory's address.  Here each
 * member's conversion is checked now, into n->args as N_MEMBER nodes
 * (str the member, a its expression) for cg to store; a member whose
 * conversion this kernel cannot compile (its BTF lacks a field the
 * library names) is left out, and reads as zero.  n->ival marks an
 * expanded xlate.
 */
static void expand(struct sema *s, struct node *n)
{
	const struct xlator *x = n->cg;
	const struct node *src = n;
	jmp_buf env, *outer = s->d->env;

	n->ival = 1;
	for (int i = 0; i < x->td->members.n; i++) {
		const struct node *m = x->td->members.v[i];
		struct binding b = { x->td->in_name, src->a };
		bool raw_args = s->raw_args;
		struct node *e, *w;
		struct cmember cm;

		s->d->env = &env;
		if (setjmp(env)) {
			s->raw_args = raw_args;
			continue;
		}
		e = clone(s, m->b, &b, 1);
		sema_expr(s, e);
		if (ctype_member(&x->out, m->a->str, &cm) &&
		    cm.type.kind == T_STRING && e->type.kind != T_STRING)
			e = sema_as_string(s, e);
		s->d->env = outer;
		w = node_new(s->a, N_MEMBER, m->line, m->col);
		w->str = m->a->str;
		w->a = e;
		node_list_push(s->a, &n->args, w);
	}
	s->d->env = outer;
}

static void expand_list(struct sema *s, struct node_list *l);

/* Expand every xlate left in the tree of n: those read a member at a
 * time were replaced by the members' expressions (sema_xlate_member).
 * A cast of one is its input's value, as DTrace's code generator makes
 * it (tests/d/tst.xlate-value.d): only what it is cast from is walked. */
static void expand_tree(struct sema *s, struct node *n)
{
	if (!n)
		return;
	if (n->kind == N_CAST && xlate_source(n->a)) {
		expand_tree(s, xlate_source(n->a)->a);
		return;
	}
	/* an inline's value is one node every use shares: each use
	 * expands its own copy */
	if (n->kind == N_IDENT && n->symkind == SYM_INLINE && n->a &&
	    n->a->kind == N_XLATE && n->a->cg && !n->a->ival)
		n->a = node_clone(s->a, n->a);
	if (n->kind == N_XLATE && n->cg && !n->ival) {
		expand_tree(s, n->a);
		expand(s, n);
		return;
	}
	expand_tree(s, n->a);
	expand_tree(s, n->b);
	expand_tree(s, n->c);
	expand_tree(s, n->agg);
	expand_tree(s, n->call);
	expand_list(s, &n->args);
	expand_list(s, &n->body);
	expand_list(s, &n->else_body);
}

static void expand_list(struct sema *s, struct node_list *l)
{
	for (int i = 0; i < l->n; i++)
		expand_tree(s, l->v[i]);
}

void sema_xlate_expand(struct sema *s, struct node *pred, struct node_list *body)
{
	expand_tree(s, pred);
	expand_list(s, body);
}

/* ---- inline arrays ---- */

/* "int [int x, int y]": the parameter names, in order */
static int inline_params(struct sema *s, const char *text, const char **names,
			 int max)
{
	const char *p = strchr(text, '[');
	int n = 0;

	while (p && *p && *p != ']' && n < max) {
		const char *end = p + 1 + strcspn(p + 1, ",]");
		const char *q = end;

		while (q > p + 1 && q[-1] == ' ')
			q--;
		const char *start = q;

		while (start > p + 1 && start[-1] != ' ' && start[-1] != '*')
			start--;
		names[n++] = arena_strndup(s->a, start, (size_t)(q - start));
		p = end;
	}
	return n;
}

bool sema_inline_index(struct sema *s, struct node *n)
{
	for (int i = s->ninlines - 1; i >= 0; i--) {
		struct top_decl *td = s->inlines[i];
		const char *names[8];
		struct binding b[8];

		if (strcmp(td->name, n->a->str) != 0 || !strchr(td->type->text, '['))
			continue;
		int np = inline_params(s, td->type->text, names, 8);

		if (np != n->args.n)
			diag_fail(s->d, n->line, n->col, "D_ARR_BADREF",
				  "%s[ ] takes %d subscript%s, %d given", td->name,
				  np, np == 1 ? "" : "s", n->args.n);
		for (int k = 0; k < np; k++) {
			b[k].name = names[k];
			b[k].to = n->args.v[k];
		}
		struct node *e = clone(s, td->init, b, np);
		int line = n->line, col = n->col;

		sema_expr(s, e);
		*n = *e;
		n->line = line;
		n->col = col;
		return true;
	}
	return false;
}
