/*
 * sema_var.c -- D variables: globals, associative arrays, thread-locals
 * (self->), clause-locals (this->) and their declarations.
 *
 * A variable comes into being by declaration or by its first assignment,
 * which gives it its type (an integer narrower than int is widened to int,
 * a string gets the strsize bound; x++ and a[k]++ make an int64_t).
 * Reading a global nobody declared or assigned is D_IDENT_UNDEF, and
 * reading an associative array, a self-> or this-> variable, or
 * compounding (x += n) any of them is D_VAR_UNDEF: in the program's text
 * order, a clause's actions before its predicate (dt_cook_var), so
 * "/self->ts/ { ... self->ts = 0; }" reads a variable its own actions
 * assign.
 *
 * Key tuples: an associative array is keyed by a tuple whose types are
 * fixed by the first use; a later use with a longer string grows that
 * key's bound (cg has not run yet, so layouts may still change).
 */
#include <string.h>

#include "front/sema_impl.h"

#include "d/globals.h"

#include "front/ctype.h"

static int find_global(struct sema *s, const char *name)
{
	for (int i = 0; i < s->spec->nglobals; i++)
		if (strcmp(s->spec->globals[i].name, name) == 0)
			return i;
	return -1;
}

static int find_dvar(struct sema *s, const char *name, enum dvar_kind k)
{
	for (int i = 0; i < s->spec->ndvars; i++)
		if (s->spec->dvars[i].kind == k &&
		    strcmp(s->spec->dvars[i].name, name) == 0)
			return i;
	return -1;
}

/* A D program's enumerators are global identifiers too (dt_decl). */
static bool is_enumerator(struct sema *s, const char *name)
{
	return ctypes_d_enumerator(s->types, name);
}

static uint32_t value_size(const struct dtype *t)
{
	if (t->kind == T_STRING || t->kind == T_STRUCT || t->kind == T_ARRAY ||
	    t->kind == T_STACK)
		return (t->size + 7) & ~7u;
	return 8;
}

static bool is_aggregate(const struct dtype *t)
{
	return t->kind == T_STRUCT || t->kind == T_ARRAY;
}

/*
 * A global or this-> variable of struct or array type has static
 * storage: its members and constant-indexed elements are at offsets known
 * now, in MAP_GLOBALS' value or the scratch area, and are read and
 * written there directly.  Sets *space and *off if n is such storage.
 */
bool sema_static_storage(struct sema *s, const struct node *n, int *space,
			 uint32_t *off)
{
	if (n->symkind == SYM_STATIC) {
		*space = n->sym;
		*off = (uint32_t)n->ival;
		return is_aggregate(&n->type);
	}
	if (!is_aggregate(&n->type))
		return false;
	if (n->symkind == SYM_GLOBAL) {
		*space = STATIC_GLOBALS;
		*off = sizeof(struct globals_hdr) + s->spec->globals[n->sym].off;
		return true;
	}
	if (n->symkind == SYM_DVAR && s->spec->dvars[n->sym].kind == DVAR_THIS) {
		*space = STATIC_SCRATCH;
		*off = REC_MAX + s->spec->dvars[n->sym].off;
		return true;
	}
	return false;
}

/*
 * v[i] with i known only when the probe fires: the place's offset is
 * v's, and n->c (carried up to an enclosing v[i].m) is an N_INDEX that
 * cg scales and adds, after checking 0 <= i < count as dtrace-utils'
 * dt_cg_arithmetic_op does (DTRACEFLT_BADINDEX, arg5 the index).  One
 * run-time index per place.
 */
static void runtime_index(struct sema *s, struct node *n,
			  const struct dtype *at)
{
	struct node *d = arena_alloc(s->a, sizeof(*d));

	d->kind = N_INDEX;
	d->line = n->line;
	d->col = n->col;
	node_list_push(s->a, &d->args, n->args.v[0]);
	d->ival = at->ct->count;
	d->type = at->ct->elem;
	n->c = d;
}

/* v.m or v[k] on static storage: resolved to a place (SYM_STATIC) */
bool sema_static_access(struct sema *s, struct node *n)
{
	int space;
	uint32_t off;

	if (!sema_static_storage(s, n->a, &space, &off))
		return false;
	n->c = n->a->symkind == SYM_STATIC ? n->a->c : NULL;
	if (n->kind == N_MEMBER) {
		struct cmember *m = arena_alloc(s->a, sizeof(*m));

		if (n->op != '.' && n->a->type.kind != T_PTR)
			diag_fail(s->d, n->line, n->col, "D_OP_PTR",
				  "operator -> must be applied to a pointer");
		if (n->op != '.' || !ctype_member(&n->a->type, n->str, m))
			diag_fail(s->d, n->line, n->col, "D_MEMBER_NAME",
				  "%s is not a member of %s", n->str,
				  dtype_name(&n->a->type));
		n->cg = m;
		n->type = m->type;
		off += m->off;
	} else {
		const struct dtype *at = &n->a->type;

		if (n->args.n != 1 && n->a->kind == N_IDENT)
			diag_fail(s->d, n->line, n->col, "D_ARR_BADREF",
				  "cannot access scalar %s as an associative "
				  "array", n->a->str);
		sema_expr(s, n->args.v[0]);
		if (at->kind != T_ARRAY || n->args.n != 1 ||
		    (n->args.v[0]->kind != N_INT &&
		     (n->a->c || n->args.v[0]->type.kind != T_INT)))
			diag_fail(s->d, n->line, n->col, "D_UNSUPPORTED",
				  "an array in a D variable takes a constant index");
		if (n->args.v[0]->kind != N_INT)
			runtime_index(s, n, at);
		else if ((uint64_t)n->args.v[0]->ival >= at->ct->count)
			diag_fail(s->d, n->line, n->col, "D_ARR_BOUNDS",
				  "index outside array bounds: %llu, max is %u",
				  (unsigned long long)n->args.v[0]->ival,
				  (unsigned)at->ct->count);
		n->type = at->ct->elem;
		if (n->args.v[0]->kind == N_INT)
			off += (uint32_t)n->args.v[0]->ival * n->type.size;
	}
	n->symkind = SYM_STATIC;
	n->sym = space;
	n->ival = off;
	return true;
}

static int add_global(struct sema *s, const char *name, struct dtype t)
{
	struct spec *sp = s->spec;
	struct spec_global *g = ARENA_PUSH(s->a, sp->globals, sp->nglobals,
					   s->globals_cap);

	g->name = name;
	g->type = t;
	g->off = sp->globals_size;
	sp->globals_size += value_size(&t);
	return sp->nglobals - 1;
}

static int add_dvar(struct sema *s, const char *name, enum dvar_kind k,
		    struct dtype t)
{
	struct spec *sp = s->spec;
	struct spec_dvar *v = ARENA_PUSH(s->a, sp->dvars, sp->ndvars,
					 s->dvars_cap);

	v->name = name;
	v->kind = k;
	v->type = t;
	v->map = -1;
	if (k == DVAR_THIS) {
		v->off = sp->this_size;
		sp->this_size += value_size(&t);
	}
	return sp->ndvars - 1;
}

/* The type a variable takes from the first value assigned to it. */
static struct dtype var_type(struct sema *s, const struct dtype *rhs)
{
	if (rhs->kind == T_STRING)
		return sema_string(s, UINT32_MAX);	/* strsize chars, NUL */
	if (rhs->kind == T_INT && rhs->size < 4)
		return type_int(4, true);
	return *rhs;
}

/*
 * Keys that are strings in all but type: a char array key is its
 * characters, as DTrace records and prints it; a char pointer where the
 * prototype has a string is read as one (dt_node_is_strcompat), so
 * a[execname] and a[curthread->comm] name one element.
 */
void sema_string_keys(struct sema *s, struct node_list *keys,
		      const struct spec_field *proto, int nproto)
{
	for (int i = 0; i < keys->n; i++) {
		const struct dtype *t = &keys->v[i]->type;

		if ((t->kind == T_ARRAY && sema_is_char_ptr(t)) ||
		    (i < nproto && proto[i].type.kind == T_STRING))
			keys->v[i] = sema_as_string(s, keys->v[i]);
	}
}

void sema_fit_keys(struct sema *s, struct node *at, struct node_list *keys,
		   struct spec_field **fields, int *nfields, uint32_t *key_size,
		   const char *what)
{
	if (!*fields) {
		*nfields = keys->n;
		*fields = arena_alloc(s->a, sizeof(**fields) * (size_t)(keys->n + 1));
		for (int i = 0; i < keys->n; i++)
			(*fields)[i].type = keys->v[i]->type;
	} else if (*nfields != keys->n) {
		diag_fail(s->d, at->line, at->col, "D_PROTO_LEN",
			  "%s[ ] prototype mismatch: %d key%s passed, %d expected",
			  what, keys->n, keys->n == 1 ? "" : "s", *nfields);
	}
	uint32_t off = 0;

	for (int i = 0; i < keys->n; i++) {
		struct spec_field *f = &(*fields)[i];
		const struct dtype *t = &keys->v[i]->type;

		/* a struct, union or array key takes only its own type
		 * (dt_node_is_argcompat's ctf_type_compat case) */
		bool by_ref = is_aggregate(t) || is_aggregate(&f->type);

		if ((t->kind == T_STRING) != (f->type.kind == T_STRING) ||
		    (by_ref && !dtype_equal(t, &f->type)))
			diag_fail(s->d, at->line, at->col, "D_PROTO_ARG",
				  "%s[ ] key #%d is incompatible with prototype:\n"
				  "\tprototype: %s\n\t      key: %s", what, i + 1,
				  dtype_name(&f->type), dtype_name(t));
		if (t->kind == T_STRING && t->size > f->type.size)
			f->type.size = t->size;
		f->off = off;
		off += value_size(&f->type);
	}
	*key_size = off ? off : 8;
}

static bool is_self_or_this(const struct node *n)
{
	return n->kind == N_MEMBER && n->a->kind == N_IDENT &&
	       (strcmp(n->a->str, "self") == 0 || strcmp(n->a->str, "this") == 0);
}

static void resolved(struct node *n, int sym, const struct dtype *t)
{
	n->symkind = SYM_DVAR;
	n->sym = sym;
	n->type = *t;
}

static _Noreturn void var_undef(struct sema *s, const struct node *n,
				const char *name);

static void member_var(struct sema *s, struct node *n, const struct dtype *rhs)
{
	enum dvar_kind k = n->a->str[0] == 's' ? DVAR_SELF : DVAR_THIS;
	int v = find_dvar(s, n->str, k);

	if (v < 0) {
		struct dtype t = rhs ? var_type(s, rhs) : type_int(8, true);

		v = add_dvar(s, n->str, k, t);
	}
	n->a->symkind = SYM_CONST;	/* "self"/"this" are not values */
	resolved(n, v, &s->spec->dvars[v].type);
}

static _Noreturn void var_undef(struct sema *s, const struct node *n,
				const char *name)
{
	diag_fail(s->d, n->line, n->col, "D_VAR_UNDEF",
		  "%s has not yet been declared or assigned", name);
}

static void assoc_var(struct sema *s, struct node *n, const struct dtype *rhs)
{
	const char *name = n->a->str;

	for (int i = 0; i < n->args.n; i++)
		sema_expr(s, n->args.v[i]);
	if (find_global(s, name) >= 0)
		diag_fail(s->d, n->line, n->col, "D_IDENT_BADREF",
			  "%s is a scalar and cannot be indexed", name);
	int v = find_dvar(s, name, DVAR_ASSOC);

	if (v < 0) {
		/* a[k] read or compounded before anything made a: dt_cook_op2
		 * creates the array for '[' and dt_cook_var then finds it was
		 * never assigned */
		if (!rhs)
			var_undef(s, n, name);
		v = add_dvar(s, name, DVAR_ASSOC, var_type(s, rhs));
	}
	struct spec_dvar *dv = &s->spec->dvars[v];

	sema_string_keys(s, &n->args, dv->keys, dv->keys ? dv->nkeys : 0);
	sema_fit_keys(s, n, &n->args, &dv->keys, &dv->nkeys, &dv->key_size, name);
	n->a->symkind = SYM_CONST;
	resolved(n, v, &dv->type);
}

/* self->a[k, ...]: a thread-local associative array, keyed by the
 * thread and then the tuple (the key's first 8 bytes are the thread) */
/* this->x[...] where this->x is new or an integer, neither pointer nor
 * array: a clause-local may not become an associative array, as self->x
 * may (dt_cook_op2's D_ARR_LOCAL) */
void sema_no_this_array(struct sema *s, const struct node *n)
{
	const struct node *m = n->a;
	int v;

	if (n->kind != N_INDEX || m->kind != N_MEMBER || m->a->kind != N_IDENT ||
	    strcmp(m->a->str, "this") != 0)
		return;
	v = find_dvar(s, m->str, DVAR_THIS);
	if (v < 0 || s->spec->dvars[v].type.kind == T_INT)
		diag_fail(s->d, n->line, n->col, "D_ARR_LOCAL",
			  "local variables may not be used as associative "
			  "arrays: %s", m->str);
}

bool sema_self_array(struct sema *s, struct node *n, const struct dtype *rhs)
{
	struct node *m = n->a;

	if (n->kind != N_INDEX || m->kind != N_MEMBER || m->a->kind != N_IDENT ||
	    strcmp(m->a->str, "self") != 0)
		return false;
	for (int i = 0; i < n->args.n; i++)
		sema_expr(s, n->args.v[i]);
	int v = -1;

	for (int i = 0; i < s->spec->ndvars; i++)
		if (s->spec->dvars[i].kind == DVAR_SELF &&
		    s->spec->dvars[i].nkeys > 0 &&
		    strcmp(s->spec->dvars[i].name, m->str) == 0)
			v = i;
	if (v < 0) {
		struct dtype t = rhs ? var_type(s, rhs) : type_int(8, true);

		v = add_dvar(s, m->str, DVAR_SELF, t);
	}
	struct spec_dvar *dv = &s->spec->dvars[v];

	sema_string_keys(s, &n->args, dv->keys, dv->keys ? dv->nkeys : 0);
	sema_fit_keys(s, n, &n->args, &dv->keys, &dv->nkeys, &dv->key_size,
		      m->str);
	for (int i = 0; i < dv->nkeys; i++)	/* after the thread */
		dv->keys[i].off += 8;
	dv->key_size += 8;
	m->a->symkind = SYM_CONST;
	m->symkind = SYM_CONST;
	resolved(n, v, &dv->type);
	return true;
}

/* D's functions and actions: an inline may not take one of their names */
static bool is_function_name(const char *name)
{
	return dfunc_is_dtrace(dfunc_lookup(name));
}

/*
 * inline TYPE NAME = EXPR;  -- a named expression, checked once here and
 * substituted (by cg) wherever NAME is used.  The definition may use the
 * inlines before it, never itself (it is not yet declared when its own
 * expression is checked, so a recursive one is D_IDENT_UNDEF).
 */
static void inline_decl(struct sema *s, struct top_decl *td)
{
	struct dtype t;

	/* the previous identifier named by its kind (dt_idkind_name) */
	const char *prev = is_function_name(td->name) ? "function"
			   : strcmp(td->name, "args") == 0 ||
				     strcmp(td->name, "uregs") == 0
				   ? "associative array" : "scalar";

	if (is_function_name(td->name) || sema_find_builtin(td->name) >= 0)
		diag_fail(s->d, td->line, td->col, "D_DECL_IDRED",
			  "identifier redefined: %s\n\t current: inline "
			  "definition\n\tprevious: %s ", td->name, prev);
	/* nor a variable's or another inline's (dt_node_inline) */
	bool assoc = find_dvar(s, td->name, DVAR_ASSOC) >= 0;
	bool inl = sema_is_inline(s, td->name);

	if (assoc || inl || find_global(s, td->name) >= 0 ||
	    is_enumerator(s, td->name))
		diag_fail(s->d, td->line, td->col, "D_DECL_IDRED",
			  "identifier redefined: %s\n\t current: inline "
			  "definition\n\tprevious: %s %s", td->name,
			  assoc ? "associative array" : "scalar",
			  inl ? "inline" : "");
	if (strchr(td->type->text, '[')) {	/* typed at each use */
		*ARENA_PUSH(s->a, s->inlines, s->ninlines, s->inlines_cap) = td;
		return;
	}
	if (!sema_resolve_type_name(s, td->type, &t))
		diag_fail(s->d, td->line, td->col, "D_TYPE_ERR",
			  "unknown type name in inline %s: %s", td->name,
			  td->type->text);
	td->init_type = arena_alloc(s->a, sizeof(struct dtype));
	*td->init_type = t;
	if (s->in_library) {
		/* typed at first use: curpsinfo's xlate names kernel types,
		 * and a program that never says curpsinfo should not pay
		 * for loading the kernel's BTF */
		*ARENA_PUSH(s->a, s->inlines, s->ninlines, s->inlines_cap) = td;
		return;
	}
	sema_expr(s, td->init);
	if ((t.kind == T_STRING) != (td->init->type.kind == T_STRING))
		diag_fail(s->d, td->line, td->col, "D_OP_INCOMPAT",
			  "inline %s definition uses incompatible types: "
			  "\"%s\" = \"%s\"", td->name, t.name,
			  td->init->type.name);
	if (t.kind == T_STRING && td->init->type.size < t.size)
		td->init_type->size = td->init->type.size;
	*ARENA_PUSH(s->a, s->inlines, s->ninlines, s->inlines_cap) = td;
}

/* an inline is a name for an expression, not a variable: it cannot be
 * assigned (DTrace's D_OP_WRITE), the library's cwd no more than one's own */
bool sema_is_inline(struct sema *s, const char *name)
{
	for (int i = 0; i < s->ninlines; i++)
		if (strcmp(s->inlines[i]->name, name) == 0)
			return true;
	return false;
}

/* An enumerator D declares may not take such a name (dt_decl_enumerator:
 * D_DECL_IDRED); the library's, loaded before this is set, may. */
bool sema_ident_taken(void *arg, const char *name)
{
	struct sema *s = arg;

	return sema_find_builtin(name) >= 0 || is_function_name(name) ||
	       sema_is_inline(s, name) || find_global(s, name) >= 0 ||
	       find_dvar(s, name, DVAR_ASSOC) >= 0;
}

bool sema_inline_ref(struct sema *s, struct node *n)
{
	for (int i = s->ninlines - 1; i >= 0; i--) {
		struct top_decl *td = s->inlines[i];

		if (strcmp(td->name, n->str) != 0 || strchr(td->type->text, '['))
			continue;
		if (td->init->type.kind == T_NONE) {	/* a library inline */
			bool raw_args = s->raw_args;

			/* written against the probe's own arguments */
			s->raw_args = true;
			sema_expr(s, td->init);
			s->raw_args = raw_args;
		}
		int64_t v;

		/* an integer inline of constant value is that constant where
		 * it is used, as DTrace makes it (dt_node_ident), so it may
		 * be an aggregation's parameter: lquantize(x, 0, MAX, 10) */
		if (type_is_int(td->init_type) && sema_const_value(td->init, &v)) {
			n->kind = N_INT;
			n->ival = v;
			n->type = *td->init_type;
			return true;
		}
		n->symkind = SYM_INLINE;
		n->a = td->init;
		n->type = *td->init_type;
		return true;
	}
	return false;
}

/* Does this identifier name a pointer or array (so that x[i] indexes
 * memory) rather than an associative array? */
bool sema_names_memory(struct sema *s, struct node *id)
{
	int g = find_global(s, id->str);
	const struct dtype *t = NULL;

	if (g >= 0)
		t = &s->spec->globals[g].type;
	else if (sema_find_builtin(id->str) >= 0 || strchr(id->str, '`'))
		return true;	/* a kernel symbol is memory (sema_ksym.c) */
	for (int i = s->ninlines - 1; !t && i >= 0; i--)
		if (strcmp(s->inlines[i]->name, id->str) == 0)
			t = s->inlines[i]->init_type;
	return t && (t->kind == T_PTR || t->kind == T_ARRAY);
}

static void global_ref(struct sema *s, struct node *n, int g)
{
	n->symkind = SYM_GLOBAL;
	n->sym = g;
	n->type = s->spec->globals[g].type;
}

bool sema_global_ref(struct sema *s, struct node *n)
{
	int g = find_global(s, n->str);

	if (g >= 0)
		global_ref(s, n, g);
	return g >= 0;
}

void sema_var_ref(struct sema *s, struct node *n)
{
	if (n->kind == N_IDENT && sema_inline_ref(s, n))
		return;
	if (is_self_or_this(n)) {
		/* read before any clause assigned or declared it: the
		 * program's text order, actions before predicates
		 * (dt_cook_var) */
		if (find_dvar(s, n->str, n->a->str[0] == 's' ? DVAR_SELF
							   : DVAR_THIS) < 0)
			diag_fail(s->d, n->line, n->col, "D_VAR_UNDEF",
				  "%s->%s has not yet been declared or assigned",
				  n->a->str, n->str);
		member_var(s, n, NULL);
	} else if (n->kind == N_INDEX) {
		assoc_var(s, n, NULL);
	} else {
		int g = find_global(s, n->str);

		if (g < 0 && find_dvar(s, n->str, DVAR_ASSOC) >= 0)
			diag_fail(s->d, n->line, n->col, "D_IDENT_BADREF",
				  "associative array '%s' may not be referenced "
				  "as scalar", n->str);
		enum dglobal_kind dg = g < 0 ? dglobal_kind(n->str) : DG_NONE;

		/* a function or args[] read as a value (dt_xcook_ident) */
		if (dg != DG_NONE && dg != DG_SCALAR)
			diag_fail(s->d, n->line, n->col, "D_IDENT_BADREF",
				  "%s '%s' may not be referenced as scalar",
				  dglobal_kind_name(dg), n->str);
		if (g < 0)
			diag_fail(s->d, n->line, n->col, "D_IDENT_UNDEF",
				  "failed to resolve %s: Unknown %s name", n->str,
				  n->str[0] == '`' ? "symbol" : "variable");
		global_ref(s, n, g);
	}
}

/*
 * a[k].m, a member of a struct an associative array holds, is a variable
 * of its own to write, as in DTrace, where a[k] is an lvalue and "." on
 * it one too (dt_cook_op2's DT_TOK_DOT keeps DT_NF_LVALUE): a[k].m++,
 * a[k].m = v, a[k].m += v; the element is created, zeroed, if absent.
 */
static bool dvar_member(struct sema *s, struct node *lhs)
{
	if (lhs->kind != N_MEMBER || lhs->op != '.' || lhs->a->kind != N_INDEX ||
	    lhs->a->a->kind != N_IDENT || sema_names_memory(s, lhs->a->a) ||
	    strcmp(lhs->a->a->str, "args") == 0)
		return false;
	sema_expr(s, lhs);
	if (lhs->a->symkind != SYM_DVAR || is_aggregate(&lhs->type) ||
	    lhs->type.kind == T_STRING)
		return false;
	lhs->symkind = SYM_DVAR_MEMBER;
	return true;
}

void sema_var_assign(struct sema *s, struct node *lhs, struct node *n)
{
	bool creating = n->kind == N_ASSIGN && !n->compound;
	const struct dtype *rhs = creating ? &n->b->type : NULL;

	if (is_self_or_this(lhs)) {
		member_var(s, lhs, rhs);
		return;
	}
	sema_no_this_array(s, lhs);
	if (sema_self_array(s, lhs, rhs))
		return;
	if (dvar_member(s, lhs))
		return;
	if (lhs->kind == N_MEMBER ||
	    (lhs->kind == N_INDEX && lhs->a->kind != N_IDENT) ||
	    (lhs->kind == N_INDEX && sema_names_memory(s, lhs->a)) ||
	    (lhs->kind == N_UNARY && lhs->op == '*')) {
		sema_expr(s, lhs);	/* a member of a struct variable */
		if (lhs->symkind == SYM_STATIC && !is_aggregate(&lhs->type))
			return;
		/* a struct member takes a whole struct of its own type: its
		 * bytes are copied (cg_var.c's store) */
		if (lhs->symkind == SYM_STATIC && lhs->type.kind == T_STRUCT &&
		    rhs && dtype_equal(&lhs->type, rhs))
			return;
		/* memory: alloca()'s, checked when the clause runs; a
		 * string is copied there whole, as dt_cg_store copies a
		 * by-reference value (*p = "str", p a string *) */
		if (n->kind == N_ASSIGN && sema_is_mem_lvalue(lhs) &&
		    (type_is_int(&lhs->type) || lhs->type.kind == T_PTR))
			return;
		if (n->kind == N_ASSIGN && !n->compound &&
		    sema_is_mem_lvalue(lhs) && lhs->type.kind == T_STRING &&
		    n->b->type.kind == T_STRING)
			return;
		diag_fail(s->d, lhs->line, lhs->col, "D_OP_LVAL",
			  "operator %s requires modifiable lvalue as an operand",
			  n->kind == N_INCDEC ? "++" : "=");
	}
	if (lhs->kind == N_INDEX && lhs->a->kind == N_IDENT &&
	    strcmp(lhs->a->str, "args") != 0) {
		int g = find_global(s, lhs->a->str);

		if (g >= 0 && is_aggregate(&s->spec->globals[g].type)) {
			sema_var_ref(s, lhs->a);	/* an array variable */
			sema_static_access(s, lhs);
			return;
		}
		/* a[k]++ creates a as an int64_t, as x++ does (dt_cook_op1) */
		struct dtype i64 = type_int(8, true);

		assoc_var(s, lhs, n->kind == N_INCDEC ? &i64 : rhs);
		return;
	}
	if (lhs->kind != N_IDENT)
		diag_fail(s->d, lhs->line, lhs->col, "D_OP_LVAL",
			  "operator %s requires modifiable lvalue as an operand",
			  n->kind == N_INCDEC ? "++" : "=");
	if (sema_find_builtin(lhs->str) >= 0 || sema_is_inline(s, lhs->str) ||
	    strchr(lhs->str, '`'))
		diag_fail(s->d, lhs->line, lhs->col, "D_OP_WRITE",
			  "operator %s can only be applied to a writable variable",
			  n->kind == N_INCDEC ? "++" : "=");
	int g = find_global(s, lhs->str);

	if (g < 0) {
		/* x++ creates an int64_t (dt_cook_op1); x += n reads x first,
		 * and a global nothing declared or assigned has no value */
		if (n->kind == N_ASSIGN && n->compound)
			var_undef(s, lhs, lhs->str);
		struct dtype t = creating ? var_type(s, rhs) : type_int(8, true);

		g = add_global(s, lhs->str, t);
	}
	lhs->symkind = SYM_GLOBAL;
	lhs->sym = g;
	lhs->type = s->spec->globals[g].type;
}

/* "int [string, int]": the value type "int", and the key types */
static void split_decl(struct sema *s, const struct decl_type *dt,
		       struct decl_type *base, char **keys)
{
	const char *br = strchr(dt->text, '[');
	size_t n = (size_t)(br - dt->text);

	while (n && dt->text[n - 1] == ' ')
		n--;
	*base = *dt;
	base->text = arena_strndup(s->a, dt->text, n);
	*keys = arena_strndup(s->a, br + 1, strcspn(br + 1, "]"));
}

/* dt_decl's "identifier redeclared", naming both kinds and types */
static _Noreturn void redeclared(struct sema *s, const struct decl_type *dt,
				 const char *name, bool assoc,
				 const struct dtype *t, bool prev_assoc,
				 const struct dtype *prev)
{
	static const char *const kinds[] = { "scalar", "associative array" };

	diag_fail(s->d, dt->line, dt->col, "D_DECL_IDRED",
		  "identifier redeclared: %s\n\t current: %s %s\n"
		  "\tprevious: %s %s", name, kinds[assoc], dtype_name(t),
		  kinds[prev_assoc], dtype_name(prev));
}

/* A global declaration may not take the name of one of DTrace's own
 * identifiers, nor of a type (dt_decl's default class). */
static void decl_name_free(struct sema *s, const struct decl_type *dt,
			   const char *name)
{
	if (s->in_library)
		return;
	if (dglobal_kind(name) != DG_NONE || sema_find_builtin(name) >= 0)
		diag_fail(s->d, dt->line, dt->col, "D_DECL_IDRED",
			  "built-in identifier redeclared: %s", name);
	if (ctypes_names_type(s->types, name))
		diag_fail(s->d, dt->line, dt->col, "D_DECL_IDRED",
			  "typedef identifier redeclared: %s", name);
	if (is_enumerator(s, name))
		diag_fail(s->d, dt->line, dt->col, "D_DECL_IDRED",
			  "identifier redeclared: %s", name);
}

/* An associative array declared again has the same tuple: its length
 * and each key's type. */
static void same_keys(struct sema *s, const struct decl_type *dt,
		      const char *name, const struct spec_dvar *prev,
		      const struct spec_dvar *cur)
{
	for (int i = 0; i < cur->nkeys && i < prev->nkeys; i++)
		if (!dtype_equal(&cur->keys[i].type, &prev->keys[i].type))
			diag_fail(s->d, dt->line, dt->col, "D_DECL_IDRED",
				  "identifier redeclared: %s\n\t current: "
				  "associative array, key #%d of type %s\n"
				  "\tprevious: associative array, key #%d of "
				  "type %s", name, i + 1,
				  dtype_name(&cur->keys[i].type), i + 1,
				  dtype_name(&prev->keys[i].type));
	if (cur->nkeys != prev->nkeys)
		diag_fail(s->d, dt->line, dt->col, "D_DECL_IDRED",
			  "identifier redeclared: %s\n\t current: associative "
			  "array of %s, tuple length %d\n\tprevious: "
			  "associative array of %s, tuple length %d", name,
			  dtype_name(&cur->type), cur->nkeys,
			  dtype_name(&prev->type), prev->nkeys);
}

/*
 * A declared variable: a global, a self-> or this-> variable, or (with a
 * tuple signature, "int x[string]") an associative array.  The type is
 * resolved with DTrace's diagnostics ("int a[]", "short void x"...).
 */
void sema_var_decl(struct sema *s, const char *name, int scope,
		   const struct decl_type *dt)
{
	struct decl_type base = *dt;
	struct dtype t;
	char *keys = NULL;

	if (dt->tuple) {
		if (scope == DECL_THIS)
			diag_fail(s->d, dt->line, dt->col, "D_DECL_LOCASSC",
				  "associative arrays may not be declared as "
				  "local variables: %s", name);
		split_decl(s, dt, &base, &keys);
	}
	ctypes_resolve_decl(s->types, &base, name, s->d, &t);
	if (scope != DECL_GLOBAL) {
		enum dvar_kind k = scope == DECL_SELF ? DVAR_SELF : DVAR_THIS;
		int v = find_dvar(s, name, k);

		if (v < 0)
			add_dvar(s, name, k, t);
		else if (!dtype_equal(&s->spec->dvars[v].type, &t))
			redeclared(s, dt, name, false, &t, false,
				   &s->spec->dvars[v].type);
		return;
	}
	/* a function's prototype is an extern declaration (dt_decl) */
	if (!t.ct || t.ct->kind != CT_FUNC)
		decl_name_free(s, dt, name);
	int g = find_global(s, name), a = find_dvar(s, name, DVAR_ASSOC);

	if (g >= 0 && (keys || !dtype_equal(&s->spec->globals[g].type, &t)))
		redeclared(s, dt, name, keys, &t, false,
			   &s->spec->globals[g].type);
	if (a >= 0 && (!keys || !dtype_equal(&s->spec->dvars[a].type, &t)))
		redeclared(s, dt, name, keys, &t, true, &s->spec->dvars[a].type);
	if (!keys) {
		if (g < 0)
			add_global(s, name, t);
		return;
	}
	int v = add_dvar(s, name, DVAR_ASSOC, t);
	struct spec_dvar *dv = &s->spec->dvars[v];
	int n = 1;

	for (const char *p = keys; *p; p++)
		n += *p == ',';
	dv->keys = arena_alloc(s->a, sizeof(*dv->keys) * (size_t)(n + 1));
	dv->nkeys = n;
	char *save = NULL;
	int i = 0;

	for (char *k = strtok_r(keys, ",", &save); k && i < n;
	     k = strtok_r(NULL, ",", &save), i++) {
		struct decl_type kd = { .text = k + strspn(k, " "),
					.line = dt->line, .col = dt->col };
		char *end = (char *)kd.text + strlen(kd.text);

		while (end > kd.text && end[-1] == ' ')
			*--end = '\0';
		ctypes_resolve_decl(s->types, &kd, NULL, s->d, &dv->keys[i].type);
		if (dv->keys[i].type.kind == T_INT)
			dv->keys[i].type = type_int(8, dv->keys[i].type.is_signed);
	}
	uint32_t off = 0;

	for (i = 0; i < n; i++) {
		dv->keys[i].off = off;
		off += value_size(&dv->keys[i].type);
	}
	dv->key_size = off ? off : 8;
	if (a >= 0)
		same_keys(s, dt, name, &s->spec->dvars[a], dv);
}

/* A probe's name as DTrace shows it: "__" becomes "-" (dt_node_probe) */
static const char *shown_probe_name(struct sema *s, const char *name)
{
	char *shown = arena_alloc(s->a, strlen(name) + 1), *q = shown;

	for (const char *c = name; *c; c++) {
		bool dash = c[0] == '_' && c[1] == '_';

		*q++ = dash ? '-' : *c;
		c += dash;
	}
	*q = '\0';
	return shown;
}

/*
 * provider p { probe a(); probe a(); }: the first declaration of a
 * provider in the program may not declare a probe twice (dt_cook_provider:
 * D_PROV_PRDUP), whatever is done with it.  A later declaration of the
 * same provider is DTrace's redeclaration, checked against the first.
 */
static void provider_decl(struct sema *s, struct program *p, int d)
{
	const struct top_decl *td = p->decls[d];

	for (int i = 0; i < d; i++)
		if (p->decls[i]->kind == TOP_PROVIDER &&
		    strcmp(p->decls[i]->name, td->name) == 0)
			return;
	for (int i = 1; i < td->nprobes; i++)
		for (int k = 0; k < i; k++) {
			const struct provider_probe *pp = &td->probes[i];

			if (strcmp(td->probes[k].name, pp->name) != 0)
				continue;
			diag_fail(s->d, pp->line, pp->col, "D_PROV_PRDUP",
				  "probe redeclared: %s:%s", td->name,
				  shown_probe_name(s, pp->name));
		}
}

void sema_decls(struct sema *s, struct program *p)
{
	for (int i = 0; i < p->ndecls; i++) {
		struct top_decl *td = p->decls[i];

		if (td->kind == TOP_STRUCT || td->kind == TOP_UNION ||
		    td->kind == TOP_ENUM || td->kind == TOP_TYPEDEF)
			(s->in_library ? ctypes_declare_lazily
				       : ctypes_declare)(s->types, td, s->d);
		else if (td->kind == TOP_VAR)
			sema_var_decl(s, td->name, td->scope, td->type);
		else if (td->kind == TOP_EXTERN)
			sema_extern_decl(s, td);
		else if (td->kind == TOP_INLINE)
			inline_decl(s, td);
		else if (td->kind == TOP_XLATOR)
			sema_xlator_decl(s, td);
		else if (td->kind == TOP_PROVIDER)
			provider_decl(s, p, i);
	}
}
