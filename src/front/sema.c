/*
 * sema.c -- names and types.
 *
 * Invariants sema establishes for cg:
 *  - every expression node has a type (node.type.kind != T_NONE);
 *  - identifiers are resolved: node.symkind/sym say which builtin, global
 *    or aggregation; args[N] is SYM_ARGS with sym = N;
 *  - integer arithmetic follows C: operands are promoted to at least int,
 *    the wider operand wins, unsigned wins at equal width; the node's type
 *    is the result type and cg truncates to it;
 *  - a string has a static bound (type.size, NUL included), the smallest
 *    that holds every value: cg allocates exactly that;
 *  - every aggregation and global variable used has an entry in the spec,
 *    and each aggregation is used with one function and one key signature
 *    throughout the program (DTrace's D_AGG_REDEF rules).
 * Errors stop the compile at the first one, with DTrace's tag.
 */
#include "front/sema.h"

#include <string.h>

#include "prov/catalog.h"

struct builtin_info {
	const char *name;
	enum dtype_kind kind;
	uint8_t size;
	bool is_signed;
};

/* ORDER BUILTIN */
static const struct builtin_info builtins[BI_COUNT_] = {
	[BI_PID] = { "pid", T_INT, 4, true },
	[BI_TID] = { "tid", T_INT, 4, true },
	[BI_PPID] = { "ppid", T_INT, 4, true },
	[BI_UID] = { "uid", T_INT, 4, false },
	[BI_GID] = { "gid", T_INT, 4, false },
	[BI_EXECNAME] = { "execname", T_STRING, 16, false },
	[BI_TIMESTAMP] = { "timestamp", T_INT, 8, false },
	[BI_VTIMESTAMP] = { "vtimestamp", T_INT, 8, false },
	[BI_WALLTIMESTAMP] = { "walltimestamp", T_INT, 8, false },
	[BI_CPU] = { "cpu", T_INT, 4, true },
	[BI_PROBEPROV] = { "probeprov", T_STRING, SYSNAME_MAX, false },
	[BI_PROBEMOD] = { "probemod", T_STRING, SYSNAME_MAX, false },
	[BI_PROBEFUNC] = { "probefunc", T_STRING, SYSNAME_MAX, false },
	[BI_PROBENAME] = { "probename", T_STRING, SYSNAME_MAX, false },
	[BI_ARG0] = { "arg0", T_INT, 8, true },
	[BI_ARG1] = { "arg1", T_INT, 8, true },
	[BI_ARG2] = { "arg2", T_INT, 8, true },
	[BI_ARG3] = { "arg3", T_INT, 8, true },
	[BI_ARG4] = { "arg4", T_INT, 8, true },
	[BI_ARG5] = { "arg5", T_INT, 8, true },
	[BI_ARG6] = { "arg6", T_INT, 8, true },
	[BI_ARG7] = { "arg7", T_INT, 8, true },
	[BI_ARG8] = { "arg8", T_INT, 8, true },
	[BI_ARG9] = { "arg9", T_INT, 8, true },
	[BI_ERRNO] = { "errno", T_INT, 4, true },
	[BI_EPID] = { "epid", T_INT, 4, false },
	[BI_ID] = { "id", T_INT, 4, false },
};

const char *builtin_name(enum builtin b)
{
	return builtins[b].name;
}

struct dtype type_int(int size, bool is_signed)
{
	static const char *const snames[] = { [1] = "char", [2] = "short",
					      [4] = "int", [8] = "int64_t" };
	static const char *const unames[] = { [1] = "uchar_t", [2] = "ushort_t",
					      [4] = "uint_t", [8] = "uint64_t" };
	struct dtype t = { .kind = T_INT, .size = (uint32_t)size,
			   .is_signed = is_signed };

	t.name = is_signed ? snames[size] : unames[size];
	return t;
}

struct dtype type_string(uint32_t size)
{
	struct dtype t = { .kind = T_STRING, .size = size, .name = "string" };

	return t;
}

bool type_is_int(const struct dtype *t)
{
	return t->kind == T_INT || t->kind == T_PTR;
}

/* D's integer type names, for casts and sizeof. */
static const struct {
	const char *name;
	uint8_t size;
	bool is_signed;
} int_types[] = {
	{ "char", 1, true },	      { "signed char", 1, true },
	{ "unsigned char", 1, false }, { "uchar_t", 1, false },
	{ "short", 2, true },	      { "signed short", 2, true },
	{ "unsigned short", 2, false }, { "ushort_t", 2, false },
	{ "int", 4, true },	      { "signed int", 4, true },
	{ "signed", 4, true },	      { "unsigned", 4, false },
	{ "unsigned int", 4, false },  { "uint_t", 4, false },
	{ "long", 8, true },	      { "signed long", 8, true },
	{ "unsigned long", 8, false }, { "ulong_t", 8, false },
	{ "long long", 8, true },      { "signed long long", 8, true },
	{ "unsigned long long", 8, false }, { "u_longlong_t", 8, false },
	{ "longlong_t", 8, true },     { "int8_t", 1, true },
	{ "int16_t", 2, true },	      { "int32_t", 4, true },
	{ "int64_t", 8, true },	      { "uint8_t", 1, false },
	{ "uint16_t", 2, false },      { "uint32_t", 4, false },
	{ "uint64_t", 8, false },      { "size_t", 8, false },
	{ "ssize_t", 8, true },	      { "uintptr_t", 8, false },
	{ "intptr_t", 8, true },	      { "pid_t", 4, true },
	{ "uid_t", 4, false },	      { "gid_t", 4, false },
	{ "id_t", 4, true },	      { "processorid_t", 4, true },
	{ "hrtime_t", 8, true },	      { "off_t", 8, true },
	{ "long int", 8, true },	      { "unsigned long int", 8, false },
	{ "short int", 2, true },      { "unsigned short int", 2, false },
	{ "long long int", 8, true },  { "unsigned long long int", 8, false },
};

static bool resolve_type_name(struct sema *s, const struct decl_type *dt,
			      struct dtype *out)
{
	const char *t = dt->text;
	size_t n = strlen(t);

	if (n && t[n - 1] == '*') {
		*out = type_int(8, false);
		out->kind = T_PTR;
		out->name = arena_strdup(s->a, t);
		return true;
	}
	if (strcmp(t, "string") == 0) {
		*out = type_string(s->strsize);
		return true;
	}
	for (size_t i = 0; i < sizeof(int_types) / sizeof(int_types[0]); i++)
		if (strcmp(int_types[i].name, t) == 0) {
			*out = type_int(int_types[i].size, int_types[i].is_signed);
			out->name = int_types[i].name;
			return true;
		}
	return false;
}

static void expr(struct sema *s, struct node *n);

static void need_int(struct sema *s, struct node *n, const char *op)
{
	if (!type_is_int(&n->type))
		diag_fail(s->d, n->line, n->col, "D_OP_INT",
			  "operator %s requires an operand of integral type", op);
}

/* The usual arithmetic conversions, DTrace's dt_type_promote. */
static struct dtype promote(const struct dtype *a, const struct dtype *b)
{
	uint32_t sa = a->size < 4 ? 4 : a->size, sb = b->size < 4 ? 4 : b->size;
	bool ua = a->size >= 4 && !a->is_signed, ub = b->size >= 4 && !b->is_signed;

	if (a->kind == T_PTR || b->kind == T_PTR)
		return type_int(8, false);
	if (sa != sb)
		return sa > sb ? type_int(sa, !ua) : type_int(sb, !ub);
	return type_int(sa, !(ua || ub));
}

static const char *op_name(int op)
{
	static char buf[4];

	switch (op) {
	case OP_LOR: return "||";
	case OP_LAND: return "&&";
	case OP_LXOR: return "^^";
	case OP_EQ: return "==";
	case OP_NE: return "!=";
	case OP_LE: return "<=";
	case OP_GE: return ">=";
	case OP_SHL: return "<<";
	case OP_SHR: return ">>";
	default:
		buf[0] = (char)op;
		buf[1] = 0;
		return buf;
	}
}

static bool is_comparison(int op)
{
	return op == OP_EQ || op == OP_NE || op == '<' || op == '>' ||
	       op == OP_LE || op == OP_GE;
}

static bool is_const_zero(const struct node *n)
{
	return n->kind == N_INT && n->ival == 0;
}

static void binary(struct sema *s, struct node *n)
{
	expr(s, n->a);
	expr(s, n->b);
	if (n->op == ',') {
		n->type = n->b->type;
		return;
	}
	if (is_comparison(n->op)) {
		bool sa = n->a->type.kind == T_STRING, sb = n->b->type.kind == T_STRING;

		if (sa != sb)
			diag_fail(s->d, n->line, n->col, "D_OP_INCOMPAT",
				  "operands have incompatible types: \"%s\" %s \"%s\"",
				  n->a->type.name, op_name(n->op), n->b->type.name);
		n->type = type_int(4, true);
		return;
	}
	need_int(s, n->a, op_name(n->op));
	need_int(s, n->b, op_name(n->op));
	if (n->op == OP_LOR || n->op == OP_LAND || n->op == OP_LXOR) {
		n->type = type_int(4, true);
		return;
	}
	if ((n->op == '/' || n->op == '%') && is_const_zero(n->b))
		diag_fail(s->d, n->line, n->col, "D_DIV_ZERO",
			  "expression contains division by zero");
	if (n->op == OP_SHL || n->op == OP_SHR)
		n->type = promote(&n->a->type, &n->a->type);
	else
		n->type = promote(&n->a->type, &n->b->type);
}

static int find_global(struct sema *s, const char *name)
{
	for (int i = 0; i < s->spec->nglobals; i++)
		if (strcmp(s->spec->globals[i].name, name) == 0)
			return i;
	return -1;
}

static int find_builtin(const char *name)
{
	for (int i = 0; i < BI_COUNT_; i++)
		if (strcmp(builtins[i].name, name) == 0)
			return i;
	return -1;
}

static int add_global(struct sema *s, const char *name, struct dtype t)
{
	struct spec *sp = s->spec;
	struct spec_global *g = ARENA_PUSH(s->a, sp->globals, sp->nglobals,
					   s->globals_cap);
	uint32_t size = t.kind == T_STRING ? (t.size + 7) & ~7u : 8;

	g->name = name;
	g->type = t;
	g->off = sp->globals_size;
	sp->globals_size += size;
	return sp->nglobals - 1;
}

static void ident(struct sema *s, struct node *n)
{
	int b = find_builtin(n->str);

	if (b >= 0) {
		const struct builtin_info *bi = &builtins[b];

		n->symkind = SYM_BUILTIN;
		n->sym = b;
		n->type = bi->kind == T_STRING ? type_string(bi->size)
					       : type_int(bi->size, bi->is_signed);
		return;
	}
	int g = find_global(s, n->str);

	if (g < 0)
		diag_fail(s->d, n->line, n->col, "D_IDENT_UNDEF",
			  "failed to resolve %s: Unknown variable name", n->str);
	n->symkind = SYM_GLOBAL;
	n->sym = g;
	n->type = s->spec->globals[g].type;
}

/* args[N]: the probe's typed arguments; syscall arguments are all
 * register-sized, so the first probe's types stand for all of them. */
static void args_index(struct sema *s, struct node *n)
{
	struct node *ix = n->args.n == 1 ? n->args.v[0] : NULL;

	if (!ix || ix->kind != N_INT || ix->ival < 0 || ix->ival > 9)
		diag_fail(s->d, n->line, n->col, "D_ARGS_IDX",
			  "index of args[] must be an integer constant from 0 to 9");
	n->symkind = SYM_ARGS;
	n->sym = (int)ix->ival;
	n->type = type_int(8, true);
	if (s->nprobes > 0 && catalog__args(s->cat, s->probes[0]) >= 0) {
		const struct probe *p = s->probes[0];

		if (n->sym >= p->nargs)
			diag_fail(s->d, n->line, n->col, "D_ARGS_IDX",
				  "index %d is out of range for %s:%s:%s:%s args[ ]",
				  n->sym, p->prov, p->mod, p->func, p->name);
		struct dtype t;
		struct decl_type dt = { .text = p->args[n->sym].type };

		if (resolve_type_name(s, &dt, &t))
			n->type = t;
	}
}

static void assign_to(struct sema *s, struct node *lhs, struct node *n)
{
	if (lhs->kind != N_IDENT)
		diag_fail(s->d, lhs->line, lhs->col, "D_OP_LVAL",
			  "operator %s requires modifiable lvalue as an operand",
			  n->kind == N_INCDEC ? "++" : "=");
	if (find_builtin(lhs->str) >= 0)
		diag_fail(s->d, lhs->line, lhs->col, "D_OP_WRITE",
			  "operator = can only be applied to a writable variable");
	int g = find_global(s, lhs->str);

	if (g < 0) {
		if (n->kind != N_ASSIGN || n->compound)
			diag_fail(s->d, lhs->line, lhs->col, "D_IDENT_UNDEF",
				  "failed to resolve %s: Unknown variable name",
				  lhs->str);
		struct dtype t = n->b->type;

		if (t.kind == T_STRING)
			t = type_string(s->strsize);
		else if (t.kind == T_INT && t.size < 4)
			t = type_int(4, true);
		g = add_global(s, lhs->str, t);
	}
	lhs->symkind = SYM_GLOBAL;
	lhs->sym = g;
	lhs->type = s->spec->globals[g].type;
}

static void assign(struct sema *s, struct node *n)
{
	expr(s, n->b);
	assign_to(s, n->a, n);
	bool ls = n->a->type.kind == T_STRING, rs = n->b->type.kind == T_STRING;

	if (ls != rs || (ls && n->compound))
		diag_fail(s->d, n->line, n->col, "D_OP_INCOMPAT",
			  "operands have incompatible types: \"%s\" %s= \"%s\"",
			  n->a->type.name, n->compound ? op_name(n->op) : "",
			  n->b->type.name);
	n->type = n->a->type;
}

static void cast(struct sema *s, struct node *n)
{
	expr(s, n->a);
	if (!resolve_type_name(s, n->decl_type, &n->type))
		diag_fail(s->d, n->line, n->col, "D_TYPE_ERR",
			  "unknown type name in cast: %s", n->decl_type->text);
	if (n->type.kind == T_STRING && n->a->type.kind != T_STRING)
		diag_fail(s->d, n->line, n->col, "D_CAST_INVAL",
			  "invalid cast expression: \"%s\" to \"string\"",
			  n->a->type.name);
}

static void size_of(struct sema *s, struct node *n)
{
	struct dtype t;

	if (n->decl_type) {
		if (!resolve_type_name(s, n->decl_type, &t))
			diag_fail(s->d, n->line, n->col, "D_TYPE_ERR",
				  "unknown type name: %s", n->decl_type->text);
	} else {
		expr(s, n->a);
		t = n->a->type;
	}
	n->kind = N_INT;
	n->ival = t.size;
	n->type = type_int(8, false);
}

static void expr(struct sema *s, struct node *n)
{
	switch (n->kind) {
	case N_INT:
		if (n->type.kind == T_NONE)
			n->type = type_int(4, true);
		break;
	case N_STR:
		n->type = type_string((uint32_t)n->slen + 1);
		break;
	case N_IDENT:
		ident(s, n);
		break;
	case N_UNARY:
		expr(s, n->a);
		if (n->op == '*' || n->op == '&')
			diag_fail(s->d, n->line, n->col, "D_UNSUPPORTED",
				  "operator %c is not supported yet", n->op);
		need_int(s, n->a, op_name(n->op));
		n->type = n->op == '!' ? type_int(4, true)
				       : promote(&n->a->type, &n->a->type);
		break;
	case N_BINARY:
		binary(s, n);
		break;
	case N_TERNARY:
		expr(s, n->a);
		expr(s, n->b);
		expr(s, n->c);
		if ((n->b->type.kind == T_STRING) != (n->c->type.kind == T_STRING))
			diag_fail(s->d, n->line, n->col, "D_OP_INCOMPAT",
				  "operator ?: operands must have compatible types");
		if (n->b->type.kind == T_STRING)
			n->type = type_string(n->b->type.size > n->c->type.size
						      ? n->b->type.size
						      : n->c->type.size);
		else
			n->type = promote(&n->b->type, &n->c->type);
		break;
	case N_ASSIGN:
		assign(s, n);
		break;
	case N_INCDEC:
		assign_to(s, n->a, n);
		need_int(s, n->a, "++");
		n->type = n->a->type;
		break;
	case N_INDEX:
		if (n->a->kind == N_IDENT && strcmp(n->a->str, "args") == 0) {
			args_index(s, n);
			break;
		}
		diag_fail(s->d, n->line, n->col, "D_UNSUPPORTED",
			  "associative arrays are not supported yet");
	case N_CAST:
		cast(s, n);
		break;
	case N_SIZEOF:
		size_of(s, n);
		break;
	case N_AGG:
		diag_fail(s->d, n->line, n->col, "D_AGG_SCALAR",
			  "aggregation @%s may not be used in an expression", n->str);
	case N_CALL:
		diag_fail(s->d, n->line, n->col, "D_FUNC_UNDEF",
			  "%s( ) may not be used as a value here", n->str);
	default:
		diag_fail(s->d, n->line, n->col, "D_UNSUPPORTED",
			  "this expression is not supported yet");
	}
}

/* ---- aggregations ---- */

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

static int find_agg(struct sema *s, const char *name)
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

static void agg_stmt(struct sema *s, struct node *st)
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
		expr(s, call->args.v[i]);
		if (!type_is_int(&call->args.v[i]->type))
			diag_fail(s->d, call->line, call->col, "D_AGG_SCALAR",
				  "%s( ) requires a scalar argument", call->str);
	}
	for (int i = 0; i < st->args.n; i++)
		expr(s, st->args.v[i]);

	int ai = find_agg(s, st->agg->str);

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

/* ---- actions ---- */

static void agg_ref(struct sema *s, struct node *n)
{
	if (n->kind != N_AGG)
		diag_fail(s->d, n->line, n->col, "D_PRINTA_AGGARG",
			  "printa( ) argument #%d is incompatible with prototype:\n"
			  "\tprototype: aggregation\n\t argument: %s", 1,
			  n->type.name ? n->type.name : "expression");
	int ai = find_agg(s, n->str);

	if (ai < 0)
		diag_fail(s->d, n->line, n->col, "D_AGG_NULL",
			  "aggregation @%s is not defined", n->str);
	n->symkind = SYM_AGG;
	n->sym = ai;
	n->type.kind = T_AGG;
}

static void printf_call(struct sema *s, struct node *n)
{
	if (n->args.n < 1 || n->args.v[0]->kind != N_STR)
		diag_fail(s->d, n->line, n->col, "D_PRINTF_ARG_FMT",
			  "printf( ) argument #1 is incompatible with prototype:\n"
			  "\tprototype: string constant\n\t argument: %s",
			  n->args.n ? "expression" : "none");
	struct dtype *types = arena_alloc(s->a, sizeof(*types) * (size_t)n->args.n);

	for (int i = 1; i < n->args.n; i++) {
		expr(s, n->args.v[i]);
		types[i - 1] = n->args.v[i]->type;
	}
	struct fmt *f;

	fmt_parse(s->a, n->args.v[0]->str, &f, s->d, n->line, n->col);
	fmt_check(f, types, n->args.n - 1, s->d, n->line, n->col);
	n->cg = f;
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
		agg_ref(s, n->args.v[i]);
}

static void check_nargs(struct sema *s, struct node *n, int lo, int hi)
{
	if (n->args.n < lo || n->args.n > hi)
		diag_fail(s->d, n->line, n->col, "D_PROTO_LEN",
			  "%s( ) prototype mismatch: %d arg%s passed, %d expected",
			  n->str, n->args.n, n->args.n == 1 ? "" : "s",
			  n->args.n < lo ? lo : hi);
}

static void action(struct sema *s, struct node *n)
{
	const char *f = n->str;

	if (strcmp(f, "printf") == 0) {
		printf_call(s, n);
	} else if (strcmp(f, "printa") == 0) {
		printa_call(s, n);
	} else if (strcmp(f, "trace") == 0 || strcmp(f, "exit") == 0) {
		check_nargs(s, n, 1, 1);
		expr(s, n->args.v[0]);
		if (f[0] == 'e')
			need_int(s, n->args.v[0], "exit( )");
	} else if (strcmp(f, "clear") == 0 || strcmp(f, "trunc") == 0) {
		check_nargs(s, n, 1, f[0] == 't' ? 2 : 1);
		agg_ref(s, n->args.v[0]);
		if (n->args.n == 2)
			expr(s, n->args.v[1]);
	} else {
		diag_fail(s->d, n->line, n->col, "D_FUNC_UNDEF",
			  "failed to resolve %s: Unknown function name", f);
	}
	n->type.kind = T_VOID;
}

static void stmt(struct sema *s, struct node *n);

static void stmts(struct sema *s, struct node_list *l)
{
	for (int i = 0; i < l->n; i++)
		stmt(s, l->v[i]);
}

static void stmt(struct sema *s, struct node *n)
{
	switch (n->kind) {
	case S_EXPR:
		if (n->a->kind == N_CALL)
			action(s, n->a);
		else
			expr(s, n->a);
		break;
	case S_AGG:
		agg_stmt(s, n);
		break;
	case S_IF:
		expr(s, n->a);
		stmts(s, &n->body);
		stmts(s, &n->else_body);
		break;
	case S_BLOCK:
		stmts(s, &n->body);
		break;
	default:
		diag_fail(s->d, n->line, n->col, "D_UNSUPPORTED",
			  "this statement is not supported yet");
	}
}

void sema_clause(struct sema *s, struct clause *c)
{
	if (c->pred) {
		expr(s, c->pred);
		if (c->pred->type.kind == T_STRING)
			diag_fail(s->d, c->pred->line, c->pred->col, "D_PRED_SCALAR",
				  "predicate result must be of scalar type");
	}
	stmts(s, &c->body);
}
