/*
 * sema_agg.c -- aggregations: the aggregating functions, their keys and
 * parameters, and the actions that take aggregations (printa, clear,
 * trunc, normalize, denormalize).
 *
 * An aggregation is declared by its first use; every later use must have
 * the same function, the same key signature and, for lquantize() and
 * llquantize(), the same parameters (DTrace's D_AGG_REDEF and
 * D_LQUANT_MATCH* rules).  Parameters must be integer constants: simple
 * constant expressions (-10, 1 << 4, (int)3) are folded here, as D's
 * parser folds them, and checked with DTrace's tags and words.
 *
 * String keys take the widest bound any use of the aggregation gives them
 * (sema_fit_keys); cg lays keys out only after every clause is checked.
 */
#include <string.h>

#include "front/sema_impl.h"

/* The argument counts of the aggregating functions, increment included:
 * their rows (d/funcs.h) leave the rest open ("void(@, ...)"). */
static const struct {
	enum dfunc fn;
	enum agg_func func;
	int lo, hi;
} agg_funcs[] = {
	{ DF_COUNT, AGG_COUNT, 0, 0 },	  { DF_SUM, AGG_SUM, 1, 1 },
	{ DF_MIN, AGG_MIN, 1, 1 },	  { DF_MAX, AGG_MAX, 1, 1 },
	{ DF_AVG, AGG_AVG, 1, 1 },	  { DF_STDDEV, AGG_STDDEV, 1, 1 },
	{ DF_QUANTIZE, AGG_QUANTIZE, 1, 2 },
	{ DF_LQUANTIZE, AGG_LQUANTIZE, 3, 5 },
	{ DF_LLQUANTIZE, AGG_LLQUANTIZE, 5, 6 },
};

#define NFUNCS (int)(sizeof(agg_funcs) / sizeof(agg_funcs[0]))

int sema_find_agg(struct sema *s, const char *name)
{
	for (int i = 0; i < s->spec->naggs; i++)
		if (strcmp(s->spec->aggs[i].name, name) == 0)
			return i;
	return -1;
}

/* The agg_funcs[] row of a call, or -1 if it calls no aggregating
 * function */
static int find_func(const struct node *call)
{
	for (int i = 0; call->kind == N_CALL && i < NFUNCS; i++)
		if (agg_funcs[i].fn == call->fn)
			return i;
	return -1;
}

/* ---- constants -------------------------------------------------------- */

static int64_t truncate_to(int64_t v, const struct dtype *t)
{
	if (t->kind != T_INT || t->size >= 8)
		return v;
	int shift = 64 - 8 * (int)t->size;
	uint64_t u = (uint64_t)v << shift;

	return t->is_signed ? (int64_t)u >> shift : (int64_t)(u >> shift);
}

/*
 * Fold an integer constant expression (already typed by sema_expr) into
 * *out; false if n is not one.  Arithmetic wraps as the BPF code would.
 */
static bool fold(const struct node *n, int64_t *out)
{
	int64_t a, b;
	uint64_t ua, ub;

	switch (n->kind) {
	case N_INT:
		*out = n->ival;
		return true;
	case N_CAST:
		if (!fold(n->a, &a) || n->type.kind != T_INT)
			return false;
		*out = truncate_to(a, &n->type);
		return true;
	case N_UNARY:
		if (!fold(n->a, &a))
			return false;
		ua = (uint64_t)a;
		*out = n->op == '-' ? (int64_t)-ua : n->op == '~' ? (int64_t)~ua
			: n->op == '!' ? !a : a;
		*out = truncate_to(*out, &n->type);
		return true;
	case N_BINARY:
		if (!fold(n->a, &a) || !fold(n->b, &b))
			return false;
		ua = (uint64_t)a;
		ub = (uint64_t)b;
		switch (n->op) {
		case '+': *out = (int64_t)(ua + ub); break;
		case '-': *out = (int64_t)(ua - ub); break;
		case '*': *out = (int64_t)(ua * ub); break;
		case '&': *out = a & b; break;
		case '|': *out = a | b; break;
		case '^': *out = a ^ b; break;
		case OP_SHL: *out = (int64_t)(ua << (ub & 63)); break;
		case OP_SHR:
			*out = n->type.is_signed ? a >> (ub & 63)
						 : (int64_t)(ua >> (ub & 63));
			break;
		case '/':
		case '%':
			if (b == 0 || (a == INT64_MIN && b == -1))
				return false;
			if (n->type.is_signed)
				*out = n->op == '/' ? a / b : a % b;
			else
				*out = (int64_t)(n->op == '/' ? ua / ub : ua % ub);
			break;
		default:
			return false;
		}
		*out = truncate_to(*out, &n->type);
		return true;
	default:
		return false;
	}
}

/* The value of parameter n, failing with tag unless it is a constant. */
static int64_t param(struct sema *s, struct node *n, const char *tag,
		     const char *msg)
{
	int64_t v;

	sema_expr(s, n);
	if (!type_is_int(&n->type) || !fold(n, &v))
		diag_fail(s->d, n->line, n->col, tag, "%s", msg);
	return v;
}

/* ---- parameters ------------------------------------------------------- */

/* lquantize(value, base, limit[, step[, incr]]): params base, limit, step */
static void lquantize_params(struct sema *s, struct node *st, int64_t *p)
{
	struct node_list *args = &st->call->args;
	int64_t base, limit, step = 1;

	base = param(s, args->v[1], "D_LQUANT_BASETYPE",
		     "lquantize( ) argument #1 must be an integer constant");
	if (base < INT32_MIN || base > INT32_MAX)
		diag_fail(s->d, st->line, st->col, "D_LQUANT_BASEVAL",
			  "lquantize( ) argument #1 must be a 32-bit quantity");
	limit = param(s, args->v[2], "D_LQUANT_LIMTYPE",
		      "lquantize( ) argument #2 must be an integer constant");
	if (limit < INT32_MIN || limit > INT32_MAX)
		diag_fail(s->d, st->line, st->col, "D_LQUANT_LIMVAL",
			  "lquantize( ) argument #2 must be a 32-bit quantity");
	if (limit <= base)
		diag_fail(s->d, st->line, st->col, "D_LQUANT_MISMATCH",
			  "lquantize( ) base (argument #1) must be less than "
			  "limit (argument #2)");
	if (args->n > 3) {
		step = param(s, args->v[3], "D_LQUANT_STEPTYPE",
			     "lquantize( ) argument #3 must be a non-zero "
			     "positive integer constant");
		if (step <= 0)
			diag_fail(s->d, st->line, st->col, "D_LQUANT_STEPTYPE",
				  "lquantize( ) argument #3 must be a non-zero "
				  "positive integer constant");
		if (step > UINT16_MAX)
			diag_fail(s->d, st->line, st->col, "D_LQUANT_STEPVAL",
				  "lquantize( ) argument #3 must be a 16-bit "
				  "quantity");
	}
	int64_t levels = (limit - base) / step;

	if (levels == 0)
		diag_fail(s->d, st->line, st->col, "D_LQUANT_STEPLARGE",
			  "lquantize( ) step (argument #3) too large: must have "
			  "at least one quantization level");
	if (levels > UINT16_MAX)
		diag_fail(s->d, st->line, st->col, "D_LQUANT_STEPSMALL",
			  "lquantize( ) step (argument #3) too small: number of "
			  "quantization levels must be a 16-bit quantity");
	p[0] = base;
	p[1] = limit;
	p[2] = step;
}

static uint64_t upow(uint64_t b, int64_t e, bool *overflow)
{
	uint64_t r = 1;

	for (int64_t i = 0; i < e; i++) {
		if (r > UINT64_MAX / b)
			*overflow = true;
		r *= b;
	}
	return r;
}

/* llquantize(value, factor, low, high, steps[, incr]) */
static void llquantize_params(struct sema *s, struct node *st, int64_t *p)
{
	struct node_list *args = &st->call->args;
	uint64_t factor, lmag, hmag, steps;
	bool over = false;

	factor = (uint64_t)param(s, args->v[1], "D_LLQUANT_FACTORTYPE",
				 "llquantize( ) argument #1 must be an integer constant");
	if (factor > UINT16_MAX || factor < 2)
		diag_fail(s->d, st->line, st->col, "D_LLQUANT_FACTORVAL",
			  "llquantize( ) argument #1 must be an unsigned 16-bit "
			  "quantity greater than or equal to 2");
	lmag = (uint64_t)param(s, args->v[2], "D_LLQUANT_LMAGTYPE",
			       "llquantize( ) argument #2 must be an integer constant");
	if (lmag > UINT16_MAX)
		diag_fail(s->d, st->line, st->col, "D_LLQUANT_LMAGVAL",
			  "llquantize( ) argument #2 must be an unsigned 16-bit "
			  "quantity");
	hmag = (uint64_t)param(s, args->v[3], "D_LLQUANT_HMAGTYPE",
			       "llquantize( ) argument #3 must be an integer constant");
	if (hmag > UINT16_MAX)
		diag_fail(s->d, st->line, st->col, "D_LLQUANT_HMAGVAL",
			  "llquantize( ) argument #3 must be an unsigned 16-bit "
			  "quantity");
	if (hmag < lmag)
		diag_fail(s->d, st->line, st->col, "D_LLQUANT_HMAGVAL",
			  "llquantize( ) argument #3 (high magnitude) must be at "
			  "least argument #2 (low magnitude)");
	upow(factor, (int64_t)hmag + 1, &over);
	if (over)
		diag_fail(s->d, st->line, st->col, "D_LLQUANT_HMAGVAL",
			  "llquantize( ) argument #3 (high magnitude) will cause "
			  "overflow of 64 bits");
	/* dt_node_is_posconst: a constant above zero, signed or not */
	int64_t sv = param(s, args->v[4], "D_LLQUANT_STEPTYPE",
			   "llquantize( ) argument #4 must be a non-zero "
			   "positive integer constant");

	if (sv <= 0)
		diag_fail(s->d, st->line, st->col, "D_LLQUANT_STEPTYPE",
			  "llquantize( ) argument #4 must be a non-zero "
			  "positive integer constant");
	steps = (uint64_t)sv;
	if (steps > UINT16_MAX)
		diag_fail(s->d, st->line, st->col, "D_LLQUANT_STEPVAL",
			  "llquantize( ) argument #4 must be an unsigned 16-bit "
			  "quantity");
	if (steps < factor && factor % steps != 0)
		diag_fail(s->d, st->line, st->col, "D_LLQUANT_STEPVAL",
			  "llquantize() argument #4 (steps) must evenly divide "
			  "argument #1 (factor) when steps<factor");
	if (steps > factor) {
		if (steps % factor != 0)
			diag_fail(s->d, st->line, st->col, "D_LLQUANT_STEPVAL",
				  "llquantize() argument #4 (steps) must be a "
				  "multiple of argument #1 (factor) when "
				  "steps>factor");
		if (lmag == 0 && (factor * factor) % steps != 0)
			diag_fail(s->d, st->line, st->col, "D_LLQUANT_STEPVAL",
				  "llquantize() argument #4 (steps) must evenly "
				  "divide the square of argument #1 (factor) when "
				  "steps>factor and lmag==0");
		if (lmag != 0 && upow(factor, (int64_t)lmag + 1, &over) % steps != 0)
			diag_fail(s->d, st->line, st->col, "D_LLQUANT_STEPVAL",
				  "llquantize() argument #4 (steps) must evenly "
				  "divide pow(argument #1 (factor), lmag (argument "
				  "#2) + 1) when steps>factor and lmag==0");
	}
	p[0] = (int64_t)factor;
	p[1] = (int64_t)lmag;
	p[2] = (int64_t)hmag;
	p[3] = (int64_t)steps;
}

/* A second use must repeat the first one's parameters. */
static void match_params(struct sema *s, struct node *st,
			 const struct spec_agg *ag, const int64_t *p)
{
	const int64_t *o = ag->params;

	if (ag->func == AGG_LQUANTIZE) {
		if (o[0] != p[0])
			diag_fail(s->d, st->line, st->col, "D_LQUANT_MATCHBASE",
				  "lquantize( ) base (argument #1) doesn't match "
				  "previous declaration: expected %d, found %d",
				  (int)o[0], (int)p[0]);
		int64_t olim = o[0] + (o[1] - o[0]) / o[2] * o[2];
		int64_t lim = p[0] + (p[1] - p[0]) / p[2] * p[2];

		if (olim != lim)
			diag_fail(s->d, st->line, st->col, "D_LQUANT_MATCHLIM",
				  "lquantize( ) limit (argument #2) doesn't match "
				  "previous declaration: expected %d, found %d",
				  (int)olim, (int)lim);
		if (o[2] != p[2])
			diag_fail(s->d, st->line, st->col, "D_LQUANT_MATCHSTEP",
				  "lquantize( ) step (argument #3) doesn't match "
				  "previous declaration: expected %d, found %d",
				  (int)o[2], (int)p[2]);
		return;
	}
	static const char *const what[] = { "factor", "lmag", "hmag", "steps" };
	static const char *const tags[] = {
		"D_LLQUANT_MATCHFACTOR", "D_LLQUANT_MATCHLMAG",
		"D_LLQUANT_MATCHHMAG", "D_LLQUANT_MATCHSTEPS",
	};

	for (int i = 0; ag->func == AGG_LLQUANTIZE && i < 4; i++)
		if (o[i] != p[i])
			diag_fail(s->d, st->line, st->col, tags[i],
				  "llquantize() %s (argument #%d) doesn't match "
				  "previous declaration: expected %d, found %d",
				  what[i], i + 1, (int)o[i], (int)p[i]);
}

/* ---- aggregating statements ------------------------------------------ */

static uint32_t value_words(enum agg_func func, const int64_t *p)
{
	switch (func) {
	case AGG_MIN: case AGG_MAX: case AGG_AVG: return 2;
	case AGG_STDDEV: return 4;
	case AGG_QUANTIZE: return AGG_QUANTIZE_NBUCKETS;
	case AGG_LQUANTIZE:
		return (uint32_t)agg_lquantize_levels(p[0], p[1], p[2]) + 2;
	case AGG_LLQUANTIZE:
		return (uint32_t)agg_llquantize_nbuckets((int)p[0], (int)p[1],
							 (int)p[2], (int)p[3]);
	default: return 1;
	}
}

static int new_agg(struct sema *s, struct node *st, int f, const int64_t *p)
{
	struct spec *sp = s->spec;
	struct spec_agg *ag = ARENA_PUSH(s->a, sp->aggs, sp->naggs, s->aggs_cap);

	ag->name = st->agg->str;
	ag->func = agg_funcs[f].func;
	memcpy(ag->params, p, sizeof(ag->params));
	ag->nwords = value_words(ag->func, p);
	if (ag->nwords * 8 > 32 * 1024)
		diag_fail(s->d, st->line, st->col, "D_LQUANT_STEPSMALL",
			  "%s( ) has too many buckets: %u",
			  dfunc_row(agg_funcs[f].fn)->name,
			  ag->nwords);
	return sp->naggs - 1;
}

/* The kernel map's key: the keys in order, a stack key as its 8-byte
 * id (spec.h's spec_agg), each other key as wide as in key_size. */
static void kernel_key_layout(struct spec_agg *ag)
{
	uint32_t koff = 0;

	for (int i = 0; i < ag->nkeys; i++) {
		struct spec_field *f = &ag->keys[i];
		uint32_t end = i + 1 < ag->nkeys ? ag->keys[i + 1].off : ag->key_size;

		f->koff = koff;
		koff += spec_key_by_id(&f->type) ? 8 : end - f->off;
	}
	ag->kkey_size = ag->nkeys ? koff : ag->key_size;
}

static void check_agg_keys(struct sema *s, struct node *st, struct spec_agg *ag)
{
	if (ag->nkeys != st->args.n)
		diag_fail(s->d, st->line, st->col, "D_AGG_REDEF",
			  "@%s has %d dimension%s but used with %d", ag->name,
			  ag->nkeys, ag->nkeys == 1 ? "" : "s", st->args.n);
	for (int i = 0; i < ag->nkeys; i++) {
		const struct dtype *t = &st->args.v[i]->type;

		if ((t->kind == T_STRING) != (ag->keys[i].type.kind == T_STRING))
			diag_fail(s->d, st->line, st->col, "D_AGG_REDEF",
				  "@%s key #%d is declared as %s, used as %s",
				  ag->name, i + 1, ag->keys[i].type.name, t->name);
	}
}

/* An action used as a key, or an aggregation: DTrace's D_KEY_TYPE. */
static void check_key(struct sema *s, struct node *k, int i)
{
	if (k->kind == N_AGG || find_func(k) >= 0 ||
	    (k->kind == N_CALL && (k->fn == DF_TRACE || k->fn == DF_PRINTF ||
				   k->fn == DF_PRINTA || k->fn == DF_EXIT)))
		diag_fail(s->d, k->line, k->col, "D_KEY_TYPE",
			  "aggregation key #%d is of a type that may not be "
			  "used as a key", i + 1);
	sema_expr(s, k);
	if (sema_is_translated(k))	/* dt_idcook_sign's dynamic case */
		diag_fail(s->d, k->line, k->col, "D_KEY_TYPE",
			  "dynamic variable expression may not be used as "
			  "aggregation index: key #%d", i + 1);
	if (k->type.kind == T_VOID || k->type.kind == T_AGG)
		diag_fail(s->d, k->line, k->col, "D_KEY_TYPE",
			  "aggregation key #%d is of a type that may not be "
			  "used as a key", i + 1);
}

/* The function node is not a call of a named function. */
static void not_a_call(struct sema *s, struct node *n)
{
	for (struct node *k = n; k; k = k->kind == N_CALL ? NULL : k->b ? k->b : k->a)
		if (k->kind == N_CALL && !k->str)
			diag_fail(s->d, k->line, k->col, "D_FUNC_IDENT",
				  "function designator is not of function type");
	diag_fail(s->d, n->line, n->col, "D_AGG_FUNC",
		  "expression may not be used as an aggregating function");
}

static int agg_func_of(struct sema *s, struct node *call)
{
	if (call->kind != N_CALL || !call->str)
		not_a_call(s, call);
	int f = find_func(call);
	const struct dfunc_row *row = dfunc_row(call->fn);

	if (f >= 0)
		return f;
	if (row && row->kind != DFK_PRIVATE)
		diag_fail(s->d, call->line, call->col, "D_AGG_FUNC",
			  "%s( ) may not be used as an aggregating function",
			  call->str);
	diag_fail(s->d, call->line, call->col, "D_FUNC_UNDEF",
		  "failed to resolve %s: Unknown function name", call->str);
}

static void check_args(struct sema *s, struct node *call, int f)
{
	int n = call->args.n, lo = agg_funcs[f].lo, hi = agg_funcs[f].hi;

	if (n < lo || n > hi)
		diag_fail(s->d, call->line, call->col, "D_PROTO_LEN",
			  "%s( ) prototype mismatch: %d arg%s passed, %s%d "
			  "expected", call->str, n, n == 1 ? "" : "s",
			  lo == hi ? "" : n < lo ? "at least " : "at most ",
			  n < lo ? lo : hi);
	if (n == 0)
		return;
	struct node *v = call->args.v[0];

	if (v->kind != N_AGG)
		sema_expr(s, v);
	if (v->kind == N_AGG || !type_is_int(&v->type))
		diag_fail(s->d, call->line, call->col, "D_AGG_SCALAR",
			  "%s( ) argument #1 must be of scalar type", call->str);
	if (hi > lo && n == hi) {	/* the increment */
		struct node *incr = call->args.v[n - 1];

		if (incr->kind != N_AGG)
			sema_expr(s, incr);
		if (incr->kind == N_AGG || !type_is_int(&incr->type))
			diag_fail(s->d, call->line, call->col, "D_PROTO_ARG",
				  "%s( ) increment value (argument #%d) must be "
				  "of scalar type", call->str, hi);
	}
}

/*
 * The name an aggregation key's expression gives itself, for the labels
 * of the Prometheus export (rt/metrics.c): a variable (execname, pid,
 * arg0), a member (self->fd, curthread->tgid), or a symbol or stack
 * function (ustack(), ufunc(...)).  Anything else has none.
 */
static const char *key_name(const struct node *k)
{
	if (k->kind == N_IDENT || k->kind == N_MEMBER)
		return k->str;
	if (k->kind != N_CALL)
		return NULL;
	switch (k->fn) {
	case DF_STACK: case DF_USTACK: case DF_JSTACK: case DF_SYM:
	case DF_FUNC: case DF_MOD: case DF_USYM: case DF_UFUNC: case DF_UMOD:
	case DF_UADDR:
		return k->str;
	default:
		return NULL;
	}
}

void sema_agg_stmt(struct sema *s, struct node *st)
{
	struct node *call = st->call;
	int f = agg_func_of(s, call);
	int64_t p[4] = { 0 };

	check_args(s, call, f);
	if (agg_funcs[f].func == AGG_LQUANTIZE)
		lquantize_params(s, st, p);
	else if (agg_funcs[f].func == AGG_LLQUANTIZE)
		llquantize_params(s, st, p);
	for (int i = 0; i < st->args.n; i++)
		check_key(s, st->args.v[i], i);

	int ai = sema_find_agg(s, st->agg->str);
	struct spec_agg *ag;

	if (ai < 0)
		sema_string_keys(s, &st->args, NULL, 0);
	else
		sema_string_keys(s, &st->args, s->spec->aggs[ai].keys,
				 s->spec->aggs[ai].nkeys);
	if (ai < 0) {
		ai = new_agg(s, st, f, p);
		ag = &s->spec->aggs[ai];
	} else {
		ag = &s->spec->aggs[ai];
		if (ag->func != agg_funcs[f].func)
			diag_fail(s->d, st->line, st->col, "D_AGG_REDEF",
				  "aggregation redefined: @%s", ag->name);
		match_params(s, st, ag, p);
		check_agg_keys(s, st, ag);
	}
	sema_fit_keys(s, st, &st->args, &ag->keys, &ag->nkeys, &ag->key_size,
		      ag->name);
	kernel_key_layout(ag);
	for (int i = 0; i < ag->nkeys; i++)
		if (!ag->keys[i].name)
			ag->keys[i].name = key_name(st->args.v[i]);
	st->sym = ai;
	st->symkind = SYM_AGG;
}

/* ---- aggregations in other places ------------------------------------- */

/*
 * An expression statement that names an aggregation without applying a
 * function to it (@a; @a[1]; @a[1][2] = count()).  True if st is one;
 * it fails then.
 */
bool sema_agg_expr_stmt(struct sema *s, struct node *e)
{
	struct node *lhs = e->kind == N_ASSIGN ? e->a : e;
	int depth = 0;

	while (lhs->kind == N_INDEX) {
		lhs = lhs->a;
		depth++;
	}
	if (lhs->kind != N_AGG)
		return false;
	if (depth > 1)
		diag_fail(s->d, e->line, e->col, "D_AGG_MDIM",
			  "cannot apply multi-dimensional array index to "
			  "aggregation @%s", lhs->str);
	if (e->kind == N_ASSIGN)
		diag_fail(s->d, e->line, e->col, "D_AGG_FUNC",
			  "@%s must be assigned the result of an aggregating "
			  "function", lhs->str);
	if (depth == 0 && sema_find_agg(s, lhs->str) < 0)
		diag_fail(s->d, e->line, e->col, "D_IDENT_UNDEF",
			  "failed to resolve @%s: Unknown variable name",
			  lhs->str);
	diag_fail(s->d, e->line, e->col, "D_AGG_NULL",
		  "expression has null effect: @%s", lhs->str);
}

/* @a as an operand of an expression. */
_Noreturn void sema_agg_in_expr(struct sema *s, struct node *n)
{
	if (sema_find_agg(s, n->str) < 0)
		diag_fail(s->d, n->line, n->col, "D_IDENT_UNDEF",
			  "failed to resolve @%s: Unknown variable name", n->str);
	diag_fail(s->d, n->line, n->col, "D_OP_INCOMPAT",
		  "operands have incompatible types: aggregation @%s may not "
		  "be used in an expression", n->str);
}

static const char *arg_type_name(struct sema *s, struct node *n)
{
	if (find_func(n) >= 0)
		return "void";
	sema_expr(s, n);
	return n->type.name ? n->type.name : "void";
}

/* Argument argno of func must be an aggregation; fails with tag if not. */
static void agg_arg(struct sema *s, struct node *call, int argno,
		    const char *tag)
{
	struct node *n = call->args.v[argno - 1];

	if (n->kind != N_AGG)
		diag_fail(s->d, call->line, call->col, tag,
			  "%s( ) argument #%d is incompatible with prototype:\n"
			  "\tprototype: aggregation\n\t argument: %s", call->str,
			  argno, arg_type_name(s, n));
	int ai = sema_find_agg(s, n->str);

	if (ai < 0)
		diag_fail(s->d, n->line, n->col, "D_IDENT_UNDEF",
			  "failed to resolve @%s: Unknown variable name", n->str);
	n->symkind = SYM_AGG;
	n->sym = ai;
	n->type.kind = T_AGG;
	n->type.name = "aggregation";
}

/* A scalar argument argno (trunc's count, normalize's divisor). */
static void scalar_arg(struct sema *s, struct node *call, int argno)
{
	struct node *n = call->args.v[argno - 1];
	const char *tn = n->kind == N_AGG ? "aggregation" : arg_type_name(s, n);

	if (n->kind == N_AGG || !type_is_int(&n->type))
		diag_fail(s->d, call->line, call->col, "D_PROTO_ARG",
			  "%s( ) argument #%d is incompatible with prototype:\n"
			  "\tprototype: uint64_t\n\t argument: %s", call->str,
			  argno, tn);
}

/* printa(@a, ...) joins on keys: all must have the first one's key types. */
static void printa_keys_match(struct sema *s, struct node *n, int first)
{
	const struct spec_agg *a0 = &s->spec->aggs[n->args.v[first]->sym];

	for (int i = first + 1; i < n->args.n; i++) {
		const struct spec_agg *a = &s->spec->aggs[n->args.v[i]->sym];

		if (a->nkeys != a0->nkeys)
			diag_fail(s->d, n->line, n->col, "D_PRINTA_AGGKEY",
				  "printa( ): @%s and @%s do not have matching "
				  "key signatures: @%s has %d key%s, @%s has %d "
				  "key%s", a0->name, a->name, a0->name, a0->nkeys,
				  a0->nkeys == 1 ? "" : "s", a->name, a->nkeys,
				  a->nkeys == 1 ? "" : "s");
		for (int k = 0; k < a0->nkeys; k++) {
			const struct dtype *t0 = &a0->keys[k].type;
			const struct dtype *t = &a->keys[k].type;

			if (t0->kind == t->kind && (t->kind == T_STRING ||
						    t0->size == t->size))
				continue;
			diag_fail(s->d, n->line, n->col, "D_PRINTA_AGGPROTO",
				  "printa( ): @%s[ ] key #%d is incompatible "
				  "with @%s:\n%*s key #%d: %s\n%*s key #%d: %s",
				  a->name, k + 1, a0->name,
				  (int)strlen(a0->name) + 6, a0->name, k + 1,
				  t0->name, (int)strlen(a0->name) + 6, a->name,
				  k + 1, t->name);
		}
	}
}

static void printa_call(struct sema *s, struct node *n)
{
	int first = 0;
	struct fmt *f = NULL;

	if (n->args.n >= 1 && n->args.v[0]->kind == N_STR) {
		fmt_parse(s->a, n->args.v[0]->str, &f, s->d, n->line, n->col);
		n->cg = f;
		first = 1;
	}
	if (n->args.n == 0)	/* its prototype, void(@, ...) */
		diag_fail(s->d, n->line, n->col, "D_PROTO_LEN",
			  "printa( ) prototype mismatch: 0 args passed, at "
			  "least 1 expected");
	if (n->args.n <= first)
		diag_fail(s->d, n->line, n->col, "D_PRINTA_PROTO",
			  "printa( ) prototype mismatch: %d args passed, %d "
			  "expected", n->args.n, first + 1);
	for (int i = first; i < n->args.n; i++)
		agg_arg(s, n, i + 1, "D_PRINTA_AGGARG");
	printa_keys_match(s, n, first);
	if (!f)
		return;

	const struct spec_agg *a0 = &s->spec->aggs[n->args.v[first]->sym];
	struct dtype *types = arena_alloc(s->a, sizeof(*types) *
						 (size_t)(a0->nkeys + 1));
	struct fmt_use use = { .func = "printa", .argoff = 1, .printa = true,
			       .agg_count = a0->func == AGG_COUNT };

	for (int k = 0; k < a0->nkeys; k++)
		types[k] = a0->keys[k].type;
	fmt_check_use(f, &use, types, a0->nkeys, s->d, n->line, n->col);
}

static void setopt_call(struct sema *s, struct node *n)
{
	sema_check_nargs(s, n, 1, 2);
	for (int i = 0; i < n->args.n; i++)
		if (n->args.v[i]->kind != N_STR)
			diag_fail(s->d, n->line, n->col, "D_PROTO_ARG",
				  "setopt( ) argument #%d is incompatible with "
				  "prototype:\n\tprototype: char *\n\t "
				  "argument: %s", i + 1,
				  arg_type_name(s, n->args.v[i]));
}

bool sema_agg_action(struct sema *s, struct node *n)
{
	switch (n->fn) {
	case DF_PRINTA:
		printa_call(s, n);
		break;
	case DF_CLEAR:
	case DF_DENORMALIZE:
		sema_check_nargs(s, n, 1, 1);
		agg_arg(s, n, 1, n->fn == DF_CLEAR ? "D_CLEAR_AGGARG"
						   : "D_NORMALIZE_AGGARG");
		break;
	case DF_TRUNC:
		sema_check_nargs(s, n, 1, 2);
		agg_arg(s, n, 1, "D_TRUNC_AGGARG");
		if (n->args.n == 2)
			scalar_arg(s, n, 2);
		break;
	case DF_NORMALIZE:
		sema_check_nargs(s, n, 2, 2);
		agg_arg(s, n, 1, "D_NORMALIZE_AGGARG");
		scalar_arg(s, n, 2);
		break;
	case DF_SETOPT:
		setopt_call(s, n);
		break;
	default:
		return false;
	}
	n->type.kind = T_VOID;
	return true;
}
