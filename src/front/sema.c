/*
 * sema.c -- names and types.
 *
 * Invariants sema establishes for cg:
 *  - every expression node has a type (node.type.kind != T_NONE);
 *  - identifiers are resolved: node.symkind/sym say which builtin, global
 *    or aggregation; args[N] is SYM_ARGS with sym = N;
 *  - integer arithmetic follows D, not C: no promotion to int, the wider
 *    operand wins, unsigned wins at equal width (sema_promote); the node's
 *    type is the result type and cg truncates to it where it is kept;
 *  - a string has a static bound (type.size, NUL included), the smallest
 *    that holds every value: cg allocates exactly that;
 *  - every aggregation and global variable used has an entry in the spec,
 *    and each aggregation is used with one function and one key signature
 *    throughout the program (DTrace's D_AGG_REDEF rules).
 * Errors stop the compile at the first one, with DTrace's tag.
 */
#include "front/sema_impl.h"

#include "front/ctype.h"
#include "front/dlib.h"

#include <setjmp.h>
#include <string.h>

#include "prov/catalog.h"

struct builtin_info {
	const char *name;
	enum dtype_kind kind;
	uint8_t size;
	bool is_signed;
	uint8_t sym;		/* enum dsym_kind: an integer printed by name */
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
	[BI_CURTHREAD] = { "curthread", T_PTR, 8, false },
	[BI_CALLER] = { "caller", T_INT, 8, false },
	[BI_STACKDEPTH] = { "stackdepth", T_INT, 4, false },
	[BI_UCALLER] = { "ucaller", T_INT, 8, false },
	[BI_USTACKDEPTH] = { "ustackdepth", T_INT, 4, false },
	/* the D library's: 1 where a tcp, udp or ip probe sees packets
	 * arrive (prov/net.c), a constant of each program */
	[BI_NET_INBOUND] = { "__net_inbound", T_INT, 4, false },
	/* the thread's cgroup v2 id; zonename is the same id, named at
	 * print time by its container (rt/container.c) */
	[BI_CGROUP] = { "cgroup", T_INT, 8, false },
	[BI_ZONENAME] = { "zonename", T_SYM, 8, false, DSYM_ZONE },
	/* the process ID as its own PID namespace numbers it */
	[BI_NSPID] = { "nspid", T_INT, 4, true },
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

struct dtype sema_string(const struct sema *s, uint32_t size)
{
	uint32_t bound = dtype_string_bound(s->strsize);

	return type_string(size < bound ? size : bound);
}

bool type_is_int(const struct dtype *t)
{
	return t->kind == T_INT || t->kind == T_PTR;
}

bool sema_resolve_type_name(struct sema *s, const struct decl_type *dt,
			    struct dtype *out)
{
	return ctypes_resolve(s->types, dt->text, out);
}

void sema_need_int(struct sema *s, struct node *n, const char *op)
{
	if (!type_is_int(&n->type))
		diag_fail(s->d, n->line, n->col, "D_OP_INT",
			  "operator %s requires an operand of integral type", op);
}

/*
 * D's arithmetic conversions, dt_type_promote: not C's.  There is no
 * promotion to int; the operand of higher rank (its width in bits, plus
 * one if unsigned) gives the result its type, so an unsigned char plus a
 * signed char is an unsigned char, and 254 + 3 kept is 1.
 */
struct dtype sema_promote(const struct dtype *a, const struct dtype *b)
{
	unsigned ra = 8 * a->size + !a->is_signed, rb = 8 * b->size + !b->is_signed;

	if (a->kind == T_PTR || b->kind == T_PTR)
		return type_int(8, false);
	return ra >= rb ? type_int(a->size, a->is_signed)
			: type_int(b->size, b->is_signed);
}

const char *sema_op_name(int op)
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
	case OP_PREINC: case OP_POSTINC: return "++";
	case OP_PREDEC: case OP_POSTDEC: return "--";
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

/*
 * What an operator needs of its operands and DTrace's words when they fall
 * short (dt_cook_op1, dt_cook_op2).  A scalar is an integer or a pointer;
 * DTrace's "integral" and "arithmetic" leave pointers out, which we do not
 * enforce yet.  Operators not listed need integers.
 */
struct operand_rule {
	int op;
	bool unary;
	const char *tag;
	const char *need;	/* completes "operator %s requires ..." */
};

static const struct operand_rule operand_rules[] = {
	{ OP_LAND, false, "D_OP_SCALAR", "operands of scalar type" },
	{ OP_LOR, false, "D_OP_SCALAR", "operands of scalar type" },
	{ OP_LXOR, false, "D_OP_SCALAR", "operands of scalar type" },
	{ '*', false, "D_OP_ARITH", "operands of arithmetic type" },
	{ '/', false, "D_OP_ARITH", "operands of arithmetic type" },
	{ '!', true, "D_OP_SCALAR", "an operand of scalar type" },
	{ '-', true, "D_OP_ARITH", "an operand of arithmetic type" },
	{ '+', true, "D_OP_ARITH", "an operand of arithmetic type" },
	{ OP_PREINC, true, "D_OP_SCALAR", "operand of scalar type" },
	{ OP_POSTINC, true, "D_OP_SCALAR", "operand of scalar type" },
	{ OP_PREDEC, true, "D_OP_SCALAR", "operand of scalar type" },
	{ OP_POSTDEC, true, "D_OP_SCALAR", "operand of scalar type" },
};

/* operand (of operator n) must be a scalar, as the table says. */
static void need_operand(struct sema *s, const struct node *n,
			 const struct node *operand, bool unary)
{
	const char *tag = "D_OP_INT", *need = unary ?
		"an operand of integral type" : "operands of integral type";

	for (size_t i = 0; i < sizeof(operand_rules) / sizeof(*operand_rules); i++)
		if (operand_rules[i].op == n->op && operand_rules[i].unary == unary) {
			tag = operand_rules[i].tag;
			need = operand_rules[i].need;
		}
	/* a pointer is a scalar, but neither arithmetic nor integral
	 * (dt_node_is_scalar, dt_node_is_arith, dt_node_is_integer) */
	if (operand->type.kind == T_INT ||
	    (operand->type.kind == T_PTR && strcmp(tag, "D_OP_SCALAR") == 0))
		return;
	diag_fail(s->d, operand->line, operand->col, tag,
		  "operator %s requires %s", sema_op_name(n->op), need);
}

/* Do a and b compare as signed: D's promotion of their types, as in
 * dt_node_op2's folds (a literal not yet typed is an int)? */
static bool const_signed(const struct node *a, const struct node *b)
{
	if (a->type.kind != T_INT || b->type.kind != T_INT)
		return true;
	return sema_promote(&a->type, &b->type).is_signed;
}

/* a OP b on two constants, as dt_node_op2 folds them; false for an
 * operator it does not fold, or a division by zero (D_DIV_ZERO's) */
static bool fold_binary(const struct node *n, int64_t a, int64_t b, int64_t *v)
{
	uint64_t ua = (uint64_t)a, ub = (uint64_t)b;
	bool sg = const_signed(n->a, n->b);

	switch (n->op) {
	case '+': *v = (int64_t)(ua + ub); return true;
	case '-': *v = (int64_t)(ua - ub); return true;
	case '*': *v = (int64_t)(ua * ub); return true;
	case '&': *v = a & b; return true;
	case '|': *v = a | b; return true;
	case '^': *v = a ^ b; return true;
	case OP_SHL: *v = (int64_t)(ua << (ub & 63)); return true;
	case OP_SHR: *v = (int64_t)(ua >> (ub & 63)); return true;
	case OP_LOR: *v = a || b; return true;
	case OP_LAND: *v = a && b; return true;
	case OP_LXOR: *v = (a != 0) ^ (b != 0); return true;
	case OP_EQ: *v = a == b; return true;
	case OP_NE: *v = a != b; return true;
	case '<': *v = sg ? a < b : ua < ub; return true;
	case OP_LE: *v = sg ? a <= b : ua <= ub; return true;
	case '>': *v = sg ? a > b : ua > ub; return true;
	case OP_GE: *v = sg ? a >= b : ua >= ub; return true;
	case '/':
	case '%':
		if (b == 0 || (sg && a == INT64_MIN && b == -1))
			return false;
		if (n->op == '/')
			*v = sg ? a / b : (int64_t)(ua / ub);
		else
			*v = sg ? a % b : (int64_t)(ua % ub);
		return true;
	default:
		return false;
	}
}

/* The value of a constant integer expression: literals, and the unary,
 * binary and ?: operators on them, as DTrace's parser folds them
 * (dt_node_op1, dt_node_op2, dt_node_op3) -- to find 123/(7-7), and to
 * make an inline of one a constant (dt_node_ident). */
bool sema_const_value(const struct node *n, int64_t *v)
{
	int64_t a, b;

	switch (n->kind) {
	case N_INT:
		*v = n->ival;
		return true;
	case N_UNARY:
		if (!sema_const_value(n->a, &a))
			return false;
		*v = n->op == '-' ? (int64_t)-(uint64_t)a
				  : n->op == '~' ? ~a : n->op == '!' ? !a : a;
		return n->op == '-' || n->op == '~' || n->op == '!' || n->op == '+';
	case N_CAST:
		return sema_const_value(n->a, v);
	case N_BINARY:
		if (!sema_const_value(n->a, &a) || !sema_const_value(n->b, &b))
			return false;
		return fold_binary(n, a, b, v);
	case N_TERNARY:
		if (!sema_const_value(n->a, &a))
			return false;
		return sema_const_value(a ? n->b : n->c, v);
	default:
		return false;
	}
}

static bool is_const_zero(const struct node *n)
{
	int64_t v;

	return sema_const_value(n, &v) && v == 0;
}

bool sema_is_null(const struct node *n)
{
	while (n->kind == N_IDENT && n->symkind == SYM_INLINE && n->a)
		n = n->a;		/* NULL is an inline: (void *)0 */
	return is_const_zero(n);
}

/* What a pointer or array points at; NULL when not known. */
static const struct dtype *pointee(const struct dtype *t)
{
	return (t->kind == T_PTR || t->kind == T_ARRAY) && t->ct ? &t->ct->elem
								 : NULL;
}

/*
 * dt_node_is_ptrcompat: two pointers (or arrays) of one kind of memory
 * to the same type, or either to void; or a pointer and the constant 0.
 * A pointee not known here (a kernel pointer BTF does not describe) is
 * taken as compatible.
 */
static bool ptr_compat(const struct node *a, const struct node *b)
{
	const struct dtype *ta = &a->type, *tb = &b->type, *ea, *eb;
	bool pa = ta->kind == T_PTR || ta->kind == T_ARRAY;
	bool pb = tb->kind == T_PTR || tb->kind == T_ARRAY;

	if (!pa || !pb)
		return (pa && tb->kind == T_INT && is_const_zero(b)) ||
		       (pb && ta->kind == T_INT && is_const_zero(a));
	if (ta->user != tb->user)
		return false;
	ea = pointee(ta);
	eb = pointee(tb);
	return !ea || !eb || ea->kind == T_VOID || eb->kind == T_VOID ||
	       (ea->kind == T_PTR ? eb->kind == T_PTR : dtype_equal(ea, eb));
}

/* ==, <, ... on what is not a string (dt_cook_op2's relational rules):
 * two integers, one type, or compatible pointers */
static bool comparable(const struct node *a, const struct node *b)
{
	const struct dtype *ta = &a->type, *tb = &b->type;
	bool ia = ta->kind == T_INT || ta->kind == T_SYM;
	bool ib = tb->kind == T_INT || tb->kind == T_SYM;

	if (ia && ib)
		return true;
	if (ta->kind == tb->kind && ta->kind != T_PTR && ta->kind != T_ARRAY)
		return ta->kind != T_STRUCT || dtype_equal(ta, tb);
	return ptr_compat(a, b);
}

/*
 * p + i, i + p, p - i: a pointer of p's type, i scaled by the pointee's
 * size (cg reads the scale from node.ival); p - q: the element count.
 */
static void pointer_arith(struct sema *s, struct node *n)
{
	bool pa = n->a->type.kind == T_PTR && n->a->type.ct;
	bool pb = n->b->type.kind == T_PTR && n->b->type.ct;

	if ((!pa && !pb) || (n->op != '+' && n->op != '-'))
		return;
	const struct dtype *pt = pa ? &n->a->type : &n->b->type;

	/* void * and function pointers point at nothing of known size:
	 * DTrace refuses to step them (dt_node_is_vfptr) */
	if (pt->ct->elem.kind == T_VOID)
		diag_fail(s->d, n->line, n->col, "D_OP_INCOMPAT",
			  "operands have incompatible types: \"%s\" %s \"%s\"",
			  dtype_name(&n->a->type), sema_op_name(n->op),
			  dtype_name(&n->b->type));
	uint32_t scale = pt->ct->elem.size ? pt->ct->elem.size : 1;

	if (pa && pb) {
		if (n->op != '-' || !ptr_compat(n->a, n->b))
			diag_fail(s->d, n->line, n->col, "D_OP_INCOMPAT",
				  "operands have incompatible types: \"%s\" %s \"%s\"",
				  dtype_name(&n->a->type), sema_op_name(n->op),
				  dtype_name(&n->b->type));
		n->type = type_int(8, true);
		n->ival = -(int64_t)scale;	/* divide the difference */
		return;
	}
	if (pb && n->op == '-')
		diag_fail(s->d, n->line, n->col, "D_OP_INCOMPAT",
			  "operands have incompatible types: \"%s\" - \"%s\"",
			  dtype_name(&n->a->type), dtype_name(&n->b->type));
	n->type = *pt;
	n->ival = scale;
}

static void binary(struct sema *s, struct node *n)
{
	sema_expr(s, n->a);
	sema_expr(s, n->b);
	if (n->op == ',') {
		n->type = n->b->type;
		return;
	}
	if (is_comparison(n->op)) {
		if (n->a->type.kind == T_STRING || n->b->type.kind == T_STRING) {
			n->a = sema_as_string(s, n->a);	/* char * vs "str" */
			n->b = sema_as_string(s, n->b);
		}
		bool sa = n->a->type.kind == T_STRING, sb = n->b->type.kind == T_STRING;

		/* s == NULL: a string is NULL when strtok( ), strchr( ), ...
		 * found nothing (cg tests its mark) */
		if (sa != sb && (n->op == OP_EQ || n->op == OP_NE) &&
		    sema_is_null(sa ? n->b : n->a)) {
			n->type = type_int(4, true);
			return;
		}
		if (sa != sb || (!sa && !comparable(n->a, n->b)))
			diag_fail(s->d, n->line, n->col, "D_OP_INCOMPAT",
				  "operands have incompatible types: \"%s\" %s \"%s\"",
				  dtype_name(&n->a->type), sema_op_name(n->op),
				  dtype_name(&n->b->type));
		n->type = type_int(4, true);
		return;
	}
	if ((n->op == '+' || n->op == '-') && (!type_is_int(&n->a->type) ||
					       !type_is_int(&n->b->type)))
		diag_fail(s->d, n->line, n->col, "D_OP_INCOMPAT",
			  "operands have incompatible types: \"%s\" %s \"%s\"",
			  dtype_name(&n->a->type), sema_op_name(n->op),
			  dtype_name(&n->b->type));
	if (n->op != '+' && n->op != '-') {	/* pointer_arith's */
		need_operand(s, n, n->a, false);
		need_operand(s, n, n->b, false);
	}
	if (n->op == OP_LOR || n->op == OP_LAND || n->op == OP_LXOR) {
		n->type = type_int(4, true);
		return;
	}
	if ((n->op == '/' || n->op == '%') && is_const_zero(n->b))
		diag_fail(s->d, n->line, n->col, "D_DIV_ZERO",
			  "expression contains division by zero");
	if (n->op == OP_SHL || n->op == OP_SHR)
		n->type = sema_promote(&n->a->type, &n->a->type);
	else
		n->type = sema_promote(&n->a->type, &n->b->type);
	pointer_arith(s, n);
}

static bool is_action_call(const struct node *n)
{
	return n->kind == N_CALL && sema_is_action(n);
}

/*
 * Is n, as written, an integer constant DTrace's parser folds -- literals
 * ($1 is one), the names of inlines, and the unary, binary and ?:
 * operators on them (dt_node_ident, dt_node_op1/op2/op3)?  Built-in
 * variables and enumerators are only known once cooked.
 */
static bool written_constant(struct sema *s, const struct node *n)
{
	switch (n->kind) {
	case N_INT:
		return true;
	case N_IDENT:
		return sema_find_builtin(n->str) < 0 && sema_is_inline(s, n->str);
	case N_UNARY:
		return n->op != '*' && n->op != '&' && written_constant(s, n->a);
	case N_BINARY:
		return n->op != ',' && written_constant(s, n->a) &&
		       written_constant(s, n->b);
	case N_TERNARY:
		return written_constant(s, n->a) && written_constant(s, n->b) &&
		       written_constant(s, n->c);
	default:
		return false;
	}
}

/*
 * c ? x : y whose condition is a constant as written is the chosen arm
 * alone: DTrace's parser returns it (dt_node_op3) before anything is
 * cooked, so the other arm is never checked, and an action in the chosen
 * one is a statement -- the DTraceToolkit's "OPT_time ? printf(...) : 1;"
 * with an inline OPT_time.  True if n is now that arm, not yet checked.
 */
static bool fold_ternary(struct sema *s, struct node *n)
{
	int64_t v;

	if (n->kind != N_TERNARY || !written_constant(s, n->a))
		return false;
	struct node *c = node_clone(s->a, n->a);	/* n->a stays unchecked */

	sema_expr(s, c);
	if (!sema_const_value(c, &v))
		return false;
	*n = *(v ? n->b : n->c);
	return true;
}

/* c ? a : b -- dt_cook_op3: all three cooked, then the condition must be
 * a scalar and neither branch an action (trace() has no value). */
static void ternary_strings(struct sema *s, struct node *n);

static void ternary_operands(struct sema *s, struct node *n)
{
	sema_expr(s, n->a);
	sema_expr(s, n->b);
	sema_expr(s, n->c);
	if (!type_is_int(&n->a->type))
		diag_fail(s->d, n->line, n->col, "D_OP_SCALAR",
			  "operator ?: expression must be of scalar type");
	if (sema_is_dynamic(n->b) || sema_is_dynamic(n->c))
		diag_fail(s->d, n->line, n->col, "D_OP_DYN",
			  "operator ?: operands cannot be of dynamic type");
	/* the arms' types before their actions (dt_cook_op3): an action's
	 * void goes only with another's */
	ternary_strings(s, n);
	if (n->b->type.kind != T_STRING && n->c->type.kind != T_STRING &&
	    !comparable(n->b, n->c) &&
	    !(n->b->type.kind == T_VOID && n->c->type.kind == T_VOID))
		diag_fail(s->d, n->line, n->col, "D_OP_INCOMPAT",
			  "operator ?: operands must have compatible types");
	if (is_action_call(n->b) || is_action_call(n->c))
		diag_fail(s->d, n->line, n->col, "D_OP_ACT",
			  "action cannot be used in a conditional context");
}

int sema_find_builtin(const char *name)
{
	for (int i = 0; i < BI_COUNT_; i++)
		if (strcmp(builtins[i].name, name) == 0)
			return i;
	return -1;
}

static void mapped_arg(struct sema *s, struct node *n, const struct probe_arg *pa);

static void ident(struct sema *s, struct node *n)
{
	int b = sema_find_builtin(n->str);

	/* argN of a lowered probe is its args[N], as uncast as argN is;
	 * past its last, 0 */
	if (b >= BI_ARG0 && b <= BI_ARG9 && s->lowered && !s->raw_args &&
	    !n->raw_arg && catalog__args(s->cat, s->probes[0]) >= 0) {
		const struct probe *p = s->probes[0];
		int k = b - BI_ARG0;

		if (k >= p->nargs) {
			n->kind = N_INT;
			n->ival = 0;
			n->type = type_int(8, true);
			return;
		}
		mapped_arg(s, n, &p->args[k]);
		n->type = type_int(8, true);
		return;
	}
	if (b >= 0) {
		const struct builtin_info *bi = &builtins[b];

		n->symkind = SYM_BUILTIN;
		n->sym = b;
		n->type = bi->kind == T_STRING ? sema_string(s, bi->size)
					       : type_int(bi->size, bi->is_signed);
		if (bi->sym) {
			n->type.kind = T_SYM;
			n->type.sym = bi->sym;
			n->type.name = "string";
		}
		if (b == BI_CURTHREAD &&
		    !ctypes_resolve(s->types, "struct task_struct *", &n->type))
			diag_fail(s->d, n->line, n->col, "D_KTYPE",
				  "curthread needs the kernel's BTF type "
				  "information (/sys/kernel/btf/vmlinux)");
		return;
	}
	/* the program's and the library's names come before the kernel's
	 * enumerators, as DTrace looks inlines up first (dt_node_ident) */
	if (sema_inline_ref(s, n) || sema_global_ref(s, n))
		return;
	const struct dlib_const *k = dlib_const_find(n->str);

	if (k) {
		n->kind = N_INT;
		n->ival = k->value;
		n->type = type_int(k->size, true);
		return;
	}
	if (sema_enum_ident(s, n) || sema_ksym_ref(s, n))
		return;
	sema_var_ref(s, n);
}

/* args[N] of a stable provider (sched, proc): via[(native)argRAW], the
 * D library's view of a tracepoint argument, typed in place of n. */
static void mapped_arg(struct sema *s, struct node *n, const struct probe_arg *pa)
{
	bool raw_args = s->raw_args;

	s->raw_args = true;
	if (!pa->native) {	/* a lowered probe's: the inline alone */
		int line = n->line, col = n->col;
		struct node *e = node_new(s->a, N_IDENT, line, col);

		e->str = pa->via;
		sema_expr(s, e);
		*n = *e;
		n->line = line;
		n->col = col;
		s->raw_args = raw_args;
		return;
	}
	struct node *raw = node_new(s->a, N_IDENT, n->line, n->col);
	struct node *e = node_new(s->a, N_CAST, n->line, n->col);
	struct decl_type *dt = arena_alloc(s->a, sizeof(*dt));
	int line = n->line, col = n->col;

	raw->str = arena_printf(s->a, "arg%d", pa->raw);
	dt->text = pa->native;
	dt->line = line;
	dt->col = col;
	e->a = raw;
	e->decl_type = dt;
	if (pa->via) {
		struct node *ix = node_new(s->a, N_INDEX, line, col);

		ix->a = node_new(s->a, N_IDENT, line, col);
		ix->a->str = pa->via;
		node_list_push(s->a, &ix->args, e);
		e = ix;
	}
	sema_expr(s, e);
	*n = *e;
	n->line = line;
	n->col = col;
	s->raw_args = raw_args;
}

/*
 * uregs[R_xxx]: a register of the thread's user context.  The index is an
 * integer constant (dt_idcook_regs), one of the D library's R_* indices
 * (regs.d): 0-20 are struct pt_regs' slots, 21-25 task->thread's.
 */
static void uregs_index(struct sema *s, struct node *n)
{
	struct node *ix = n->args.n == 1 ? n->args.v[0] : NULL;
	int64_t v;

	if (ix)
		sema_expr(s, ix);
	if (!ix || !sema_const_value(ix, &v))
		diag_fail(s->d, n->line, n->col, "D_PROTO_ARG",
			  "uregs[ ] argument #1 is incompatible with prototype:\n"
			  "\tprototype: integer constant\n\t argument: %s",
			  ix ? dtype_name(&ix->type) : "(none)");
	if (v < 0 || v > 25)
		diag_fail(s->d, n->line, n->col, "D_REGS_IDX",
			  "index %lld is out of range for array uregs",
			  (long long)v);
	n->symkind = SYM_UREGS;
	n->sym = (int)v;
	n->type = type_int(8, false);
}

/* args[N]: the probe's typed arguments.  The first probe's stand for all
 * the clause's: compile.c gives each layout of them a clause of its own. */
static void args_index(struct sema *s, struct node *n)
{
	struct node *ix = n->args.n == 1 ? n->args.v[0] : NULL;

	/* dt_idcook_args: one argument, an integer constant, in range */
	if (!ix)
		diag_fail(s->d, n->line, n->col, "D_PROTO_LEN",
			  "args[ ] prototype mismatch: %d args passed, "
			  "1 expected", n->args.n);
	/* DTrace's parser folds a constant expression to one: args[-1] */
	if (ix->kind != N_INT && sema_const_value(ix, &ix->ival))
		ix->kind = N_INT;
	if (ix->kind != N_INT) {
		sema_expr(s, ix);
		diag_fail(s->d, n->line, n->col, "D_PROTO_ARG",
			  "args[ ] argument #1 is incompatible with prototype:\n"
			  "\tprototype: integer constant\n\t argument: %s",
			  dtype_name(&ix->type));
	}
	if (ix->ival < 0 || ix->ival > 9)
		diag_fail(s->d, n->line, n->col, "D_ARGS_IDX",
			  "index %lld is out of range for args[ ]",
			  (long long)ix->ival);
	n->symkind = SYM_ARGS;
	n->sym = (int)ix->ival;
	n->type = type_int(8, true);
	if (s->nprobes > 0 && catalog__args(s->cat, s->probes[0]) >= 0) {
		const struct probe *p = s->probes[0];

		if (n->sym >= p->nargs)
			diag_fail(s->d, n->line, n->col, "D_ARGS_IDX",
				  "index %d is out of range for %s:%s:%s:%s args[ ]",
				  n->sym, p->prov, p->mod, p->func, p->name);
		if (p->args[n->sym].native || p->args[n->sym].via) {
			mapped_arg(s, n, &p->args[n->sym]);
			return;
		}
		struct dtype t;
		struct decl_type dt = { .text = p->args[n->sym].type };

		if (sema_resolve_type_name(s, &dt, &t))
			n->type = t;
	}
}

/*
 * c ? x : y with a string arm (dt_cook_op3): a char array or pointer in
 * the other arm is read as a string, a null pointer constant is NULL
 * (cg); anything else is incompatible.
 */
static void ternary_strings(struct sema *s, struct node *n)
{
	if (n->b->type.kind != T_STRING && n->c->type.kind != T_STRING)
		return;
	n->b = sema_as_string(s, n->b);
	n->c = sema_as_string(s, n->c);
	bool sb = n->b->type.kind == T_STRING, sc = n->c->type.kind == T_STRING;

	if (sb != sc && !sema_is_null(sb ? n->c : n->b))
		diag_fail(s->d, n->line, n->col, "D_OP_INCOMPAT",
			  "operator ?: operands must have compatible types");
}

static void assign(struct sema *s, struct node *n)
{
	sema_expr(s, n->b);
	sema_var_assign(s, n->a, n);
	if (!n->compound)
		sema_alloca_store(s, n->a, n->b);
	/* an action's void is taken as the variable's type, and the code
	 * generator then refuses the call (dt_cg_call_subr) */
	if (is_action_call(n->b))
		diag_fail(s->d, n->line, n->col, "D_CG_EXPR",
			  "tracing function %s( ) may not be called from a D "
			  "expression (D program context required)", n->b->str);
	if (!n->compound && (n->a->type.kind == T_ARRAY ||
			     (n->a->type.kind == T_VOID && n->a->type.ct)))
		diag_fail(s->d, n->line, n->col, "D_OP_ARRFUN",
			  "operator = may not be applied to operand of type "
			  "\"%s\"", dtype_name(&n->a->type));
	bool ls = n->a->type.kind == T_STRING;

	/* a string takes a char array or pointer, read as a string
	 * (dt_node_is_strcompat) */
	if (ls && !n->compound)
		n->b = sema_as_string(s, n->b);
	bool rs = n->b->type.kind == T_STRING;
	const struct dtype *lt = &n->a->type;

	/* += and -= on other than two integers need a pointer to something
	 * of known size on the left (dt_cook_op2's DT_TOK_ADD_EQ) */
	if (n->compound && (n->op == '+' || n->op == '-') && !ls && !rs &&
	    (lt->kind != T_INT || n->b->type.kind != T_INT) &&
	    (lt->kind != T_PTR || !lt->ct || lt->ct->elem.kind == T_VOID))
		diag_fail(s->d, n->line, n->col, "D_OP_VFPTR",
			  "operator %s= requires left-hand scalar operand of "
			  "known size", n->op == '+' ? "+" : "-");

	/* a pointer takes a pointer (or 0), an integer an integer */
	bool lp = n->a->type.kind == T_PTR, rp = n->b->type.kind == T_PTR;
	bool mismatch = !n->compound && lp != rp && !(lp && is_const_zero(n->b));

	/* a string takes 0 and NULL, as a char array takes a null pointer
	 * (dt_node_is_ptrcompat): the variable becomes NULL, and a dynamic
	 * one is freed (cg) */
	if (ls && !rs && !n->compound && sema_is_null(n->b)) {
		n->type = n->a->type;
		return;
	}
	if (ls != rs || (ls && n->compound) || mismatch)
		diag_fail(s->d, n->line, n->col, "D_OP_INCOMPAT",
			  "operands have incompatible types: \"%s\" %s= \"%s\"",
			  dtype_name(&n->a->type),
			  n->compound ? sema_op_name(n->op) : "",
			  dtype_name(&n->b->type));
	n->type = n->a->type;
}

static void cast(struct sema *s, struct node *n)
{
	sema_expr(s, n->a);
	ctypes_resolve_decl(s->types, n->decl_type, NULL, s->d, &n->type);
	if (n->type.kind == T_STRING && n->a->type.kind != T_STRING) {
		/* a scalar or any pointer becomes the string at that
		 * address (dt_cook_op1's cast to string) */
		if (!sema_is_char_ptr(&n->a->type) && n->a->type.kind != T_PTR &&
		    !type_is_int(&n->a->type))
			diag_fail(s->d, n->line, n->col, "D_CAST_INVAL",
				  "invalid cast expression: \"%s\" to \"string\"",
				  dtype_name(&n->a->type));
		n->kind = N_STRINGOF;	/* (string)p reads the chars */
		sema_stringof_typed(s, n);
		return;
	}
	/* a scalar takes a scalar (dt_cook_op2's DT_TOK_LPAR), or a pointer
	 * an array; a string, struct or union is no scalar */
	bool to_scalar = n->type.kind == T_INT || n->type.kind == T_PTR;
	const struct dtype *from = &n->a->type;
	bool scalar = from->kind == T_INT || from->kind == T_PTR ||
		      from->kind == T_SYM;

	if (to_scalar && !scalar && !dtype_equal(&n->type, from) &&
	    !(n->type.kind == T_PTR && from->kind == T_ARRAY))
		diag_fail(s->d, n->line, n->col, "D_CAST_INVAL",
			  "invalid cast expression: \"%s\" to \"%s\"",
			  dtype_name(from), dtype_name(&n->type));
	/* a struct, union or array casts only to its own type (dt_cook_op1's
	 * ctf_type_compat case) */
	if ((n->type.kind == T_STRUCT || n->type.kind == T_ARRAY) &&
	    !dtype_equal(&n->type, &n->a->type))
		diag_fail(s->d, n->line, n->col, "D_CAST_INVAL",
			  "invalid cast expression: \"%s\" to \"%s\"",
			  dtype_name(&n->a->type), dtype_name(&n->type));
}

static void size_of(struct sema *s, struct node *n)
{
	struct dtype t;

	if (n->decl_type) {
		ctypes_resolve_decl(s->types, n->decl_type, NULL, s->d, &t);
	} else {
		sema_expr(s, n->a);
		t = n->a->type;
		if (n->a->kind == N_MEMBER && n->a->cg &&
		    ((struct cmember *)n->a->cg)->bit_width)
			diag_fail(s->d, n->line, n->col, "D_SIZEOF_BITFIELD",
				  "cannot apply sizeof to a bit-field");
	}
	if (t.kind == T_VOID || (t.kind == T_STRUCT && t.size == 0))
		diag_fail(s->d, n->line, n->col, "D_SIZEOF_TYPE",
			  "cannot apply sizeof to an operand of unknown size");
	n->kind = N_INT;
	n->ival = t.size;
	if (t.kind == T_STRING && t.size > s->strsize)
		n->ival = s->strsize;	/* DTrace's: a string is strsize bytes */
	n->type = type_int(8, false);
	n->type.name = "size_t";
}

static void action(struct sema *s, struct node *n);

/* An aggregation or translated data (an xlate, curpsinfo) has no type
 * of its own to record: DTrace calls it dynamic (dt_cg_act_trace). */
static _Noreturn void trace_dynamic(struct sema *s, const struct node *n)
{
	diag_fail(s->d, n->line, n->col, "D_TRACE_DYN",
		  "trace( ) may not be applied to a dynamic expression");
}

/* D's actions that are only statements, which have no value; the other
 * actions (stack(), sym(), raise(), ...) are checked as subroutines. */
bool sema_is_action(const struct node *n)
{
	switch (n->fn) {
	case DF_PRINTF: case DF_TRACE: case DF_EXIT: case DF_PRINTA:
	case DF_CLEAR: case DF_TRUNC: case DF_NORMALIZE: case DF_DENORMALIZE:
	case DF_SETOPT: case DF_SYSTEM: case DF_FREOPEN: case DF_SPECULATE:
	case DF_COMMIT: case DF_DISCARD: case DF_TRACEMEM: case DF_PRINT:
		return true;
	default:
		return false;
	}
}

/* -x, +x, !x, ~x, *p, &x */
static void unary(struct sema *s, struct node *n)
{
	if (n->op == '*') {
		sema_deref(s, n);
		return;
	}
	if (n->op == '&') {
		sema_addrof(s, n);
		return;
	}
	sema_expr(s, n->a);
	need_operand(s, n, n->a, true);
	n->type = n->op == '!' ? type_int(4, true)
			       : sema_promote(&n->a->type, &n->a->type);
}

/* c ? a : b: a constant condition folded, else the arms' common type */
static void ternary(struct sema *s, struct node *n)
{
	if (fold_ternary(s, n)) {
		sema_expr(s, n);
		return;
	}
	ternary_operands(s, n);
	if (n->b->type.kind == T_STRING || n->c->type.kind == T_STRING)
		n->type = type_string(n->b->type.size > n->c->type.size
					      ? n->b->type.size
					      : n->c->type.size);
	else if (n->b->type.kind == T_PTR && n->b->type.ct)
		n->type = n->b->type;	/* p ? p : 0 keeps p's type */
	else if (n->c->type.kind == T_PTR && n->c->type.ct)
		n->type = n->c->type;
	else
		n->type = sema_promote(&n->b->type, &n->c->type);
}

/* x[i]: args[], uregs[], an inline's array, self->/this-> arrays,
 * memory (a kernel array or a pointer), or an associative array */
static void index_expr(struct sema *s, struct node *n)
{
	if (n->a->kind == N_IDENT && strcmp(n->a->str, "args") == 0) {
		args_index(s, n);
		return;
	}
	if (n->a->kind == N_IDENT && strcmp(n->a->str, "uregs") == 0) {
		uregs_index(s, n);
		return;
	}
	if (n->a->kind == N_IDENT && sema_inline_index(s, n))
		return;
	sema_no_this_array(s, n);
	if (sema_self_array(s, n, NULL))
		return;
	if (n->a->kind != N_IDENT || sema_names_memory(s, n->a)) {
		sema_expr(s, n->a);
		if (sema_static_access(s, n))
			return;
		sema_index_mem(s, n);
		return;
	}
	sema_var_ref(s, n);	/* an associative array */
}

void sema_expr(struct sema *s, struct node *n)
{
	diag_check_stack(s->d, n->line, n->col);	/* "1 + 1 + ...": left-deep */
	switch (n->kind) {
	case N_INT:
		if (n->type.kind == T_NONE)
			n->type = type_int(4, true);
		break;
	case N_STR:		/* as any string, at most strsize characters */
		n->type = sema_string(s, n->slen < UINT32_MAX ? (uint32_t)n->slen + 1
							      : UINT32_MAX);
		break;
	case N_IDENT:
		ident(s, n);
		break;
	case N_UNARY:
		unary(s, n);
		break;
	case N_BINARY:
		binary(s, n);
		break;
	case N_TERNARY:
		ternary(s, n);
		break;
	case N_ASSIGN:
		assign(s, n);
		break;
	case N_INCDEC:
		sema_var_assign(s, n->a, n);
		need_operand(s, n, n->a, true);
		n->type = n->a->type;
		break;
	case N_INDEX:
		index_expr(s, n);
		break;
	case N_STRINGOF:
		sema_stringof(s, n);
		break;
	case N_OFFSETOF:
		sema_offsetof(s, n);
		break;
	case N_MEMBER:
		if (n->a->kind == N_IDENT && n->a->symkind == SYM_NONE &&
		    (strcmp(n->a->str, "self") == 0 || strcmp(n->a->str, "this") == 0)) {
			sema_var_ref(s, n);
			break;
		}
		sema_expr(s, n->a);
		if (!sema_xlate_member(s, n) && !sema_static_access(s, n))
			sema_member(s, n);
		break;
	case N_XLATE:
		sema_xlate(s, n);
		break;
	case N_CAST:
		cast(s, n);
		break;
	case N_SIZEOF:
		size_of(s, n);
		break;
	case N_AGG:
		sema_agg_in_expr(s, n);
	case N_CALL:
		if (sema_is_action(n)) {
			action(s, n);	/* void: the caller says where that is wrong */
			break;
		}
		if (n->str && sema_kernel_subr(s, n))
			break;
		sema_subr_call(s, n, false);
		break;
	default:
		diag_fail(s->d, n->line, n->col, "D_UNSUPPORTED",
			  "this expression is not supported yet");
	}
}

/* ---- actions ---- */

static void printf_call(struct sema *s, struct node *n)
{
	if (n->args.n < 1)
		diag_fail(s->d, n->line, n->col, "D_PROTO_LEN",
			  "%s( ) prototype mismatch: 0 args passed, at least 1 "
			  "expected", n->str);
	if (n->args.v[0]->kind != N_STR) {
		sema_expr(s, n->args.v[0]);
		bool str = n->args.v[0]->type.kind == T_STRING;

		diag_fail(s->d, n->line, n->col,
			  str ? "D_PRINTF_ARG_FMT" : "D_PROTO_ARG",
			  "%s( ) argument #1 is incompatible with prototype:\n"
			  "\tprototype: string%s\n\t argument: %s", n->str,
			  str ? " constant" : "", dtype_name(&n->args.v[0]->type));
	}
	struct dtype *types = arena_alloc(s->a, sizeof(*types) * (size_t)n->args.n);

	for (int i = 1; i < n->args.n; i++) {
		struct node *a = n->args.v[i];

		/* an aggregation is a value here, one no conversion takes:
		 * the format check rejects it in its own words */
		if (a->kind == N_AGG && sema_find_agg(s, a->str) >= 0) {
			types[i - 1] = (struct dtype){ .kind = T_AGG };
			continue;
		}
		sema_expr(s, a);
		if (n->args.v[i]->type.kind == T_ARRAY)	/* char[]: a string */
			n->args.v[i] = sema_as_string(s, n->args.v[i]);
		types[i - 1] = n->args.v[i]->type;
	}
	struct fmt *f;

	fmt_parse(s->a, n->args.v[0]->str, &f, s->d, n->line, n->col);
	fmt_check(f, types, n->args.n - 1, s->d, n->line, n->col);
	n->cg = f;
}

void sema_check_nargs(struct sema *s, struct node *n, int lo, int hi)
{
	if (n->args.n < lo || n->args.n > hi)
		diag_fail(s->d, n->line, n->col, "D_PROTO_LEN",
			  "%s( ) prototype mismatch: %d arg%s passed, %s%d expected",
			  n->str, n->args.n, n->args.n == 1 ? "" : "s",
			  lo == hi ? "" : n->args.n < lo ? "at least " : "at most ",
			  n->args.n < lo ? lo : hi);
}

/* trace(v) and exit(status): one value, recorded */
static void trace_exit_call(struct sema *s, struct node *n)
{
	bool trace = n->fn == DF_TRACE;

	sema_check_nargs(s, n, 1, 1);
	if (trace && n->args.v[0]->kind == N_AGG)
		trace_dynamic(s, n);
	sema_expr(s, n->args.v[0]);
	if (trace && sema_is_dynamic(n->args.v[0]))
		trace_dynamic(s, n);
	if (n->args.v[0]->type.kind == T_ARRAY)	/* char[]: a string */
		n->args.v[0] = sema_as_string(s, n->args.v[0]);
	const struct dtype *t = &n->args.v[0]->type;

	if (trace && t->kind == T_VOID)
		diag_fail(s->d, n->line, n->col, "D_TRACE_VOID",
			  "trace( ) may not be applied to a void expression");
	if (!trace && t->kind != T_INT)
		diag_fail(s->d, n->line, n->col, "D_PROTO_ARG",
			  "exit( ) argument #1 is incompatible with "
			  "prototype:\n\tprototype: int\n\t argument: %s",
			  dtype_name(t));
}

static void action(struct sema *s, struct node *n)
{
	const struct dfunc_row *row = dfunc_row(n->fn);

	if (!n->str)
		sema_expr(s, n);	/* reports the bad call */
	if (row && (row->flags & DFF_DESTRUCTIVE))
		s->spec->destructive = true;
	switch (n->fn) {
	case DF_STACK:
	case DF_USTACK: {
		/* the action: trace(stack(...)) */
		struct node *value = node_new(s->a, N_CALL, n->line, n->col);

		*value = *n;
		memset(&n->args, 0, sizeof(n->args));
		node_list_push(s->a, &n->args, value);
		n->str = "trace";
		n->fn = DF_TRACE;
		trace_exit_call(s, n);
		break;
	}
	case DF_PRINTF:
		printf_call(s, n);
		break;
	case DF_SYSTEM:
	case DF_FREOPEN:
		printf_call(s, n);
		if (n->fn == DF_FREOPEN &&
		    (strcmp(n->args.v[0]->str, ".") == 0 ||
		     strcmp(n->args.v[0]->str, "..") == 0))
			diag_fail(s->d, n->line, n->col, "D_FREOPEN_INVALID",
				  "freopen( ) argument #1 cannot be \"%s\"",
				  n->args.v[0]->str);
		break;
	case DF_TRACE:
	case DF_EXIT:
		trace_exit_call(s, n);
		break;
	default:
		if (!sema_agg_action(s, n) && !sema_speculation_action(s, n) &&
		    !sema_data_action(s, n)) {
			sema_subr_call(s, n, true);
			return;
		}
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
	diag_check_stack(s->d, n->line, n->col);
	switch (n->kind) {
	case S_EXPR:
		/* an action or an aggregation's assignment, once folded */
		if (fold_ternary(s, n->a) ||
		    (n->a->kind == N_ASSIGN && fold_ternary(s, n->a->a))) {
			*n = *ast_expr_stmt(s->a, n->a);
			stmt(s, n);
			break;
		}
		if (n->a->kind == N_CALL)
			action(s, n->a);
		else if (!sema_agg_expr_stmt(s, n->a))
			sema_expr(s, n->a);
		break;
	case S_AGG:
		sema_agg_stmt(s, n);
		break;
	case S_IF:
		sema_expr(s, n->a);
		stmts(s, &n->body);
		stmts(s, &n->else_body);
		break;
	case S_BLOCK:
		stmts(s, &n->body);
		break;
	case S_DECL:
		sema_var_decl(s, n->str, n->decl_scope, n->decl_type);
		break;
	default:
		diag_fail(s->d, n->line, n->col, "D_UNSUPPORTED",
			  "this statement is not supported yet");
	}
}

static void predicate(struct sema *s, struct clause *c)
{
	sema_expr(s, c->pred);
	if (!type_is_int(&c->pred->type))	/* checked once the clause is read */
		diag_fail(s->d, c->has_body ? c->end_line : c->pred->line,
			  c->pred->col, "D_PRED_SCALAR",
			  "predicate result must be of scalar type");
}

/*
 * DTrace cooks a clause's actions before its predicate, so "/!done/ {
 * done = 1; }" finds done created by the actions.  Should the actions
 * name a variable only the predicate creates ("/(x = f()) > 0/ {
 * trace(x); }", "/(this->t = f()) > 0/ { trace(this->t); }"), the
 * undefined identifier or variable sends it back to cook the predicate
 * first and then the actions, once (dt_cook_clause retries on
 * D_IDENT_UNDEF and D_VAR_UNDEF), so this->t has the predicate's type.
 * The retry checks a fresh copy of the actions: the failed pass rewrote
 * part of them in place.
 */
void sema_clause(struct sema *s, struct clause *c)
{
	struct node_list body = { 0 };
	jmp_buf env, *outer = s->d->env;

	sema_alloca_clause_begin(s);
	if (c->pred) {
		body = node_list_clone(s->a, &c->body);
		s->d->env = &env;
		if (setjmp(env)) {
			const char *tag = s->d->tag ? s->d->tag : "";

			s->d->env = outer;
			if (strcmp(tag, "D_IDENT_UNDEF") != 0 &&
			    strcmp(tag, "D_VAR_UNDEF") != 0)
				longjmp(*outer, 1);
			c->body = body;
			sema_alloca_clause_begin(s);
			predicate(s, c);
			stmts(s, &c->body);
			sema_speculation_clause(s, c);
			sema_alloca_clause_end(s, c);
			sema_xlate_expand(s, c->pred, &c->body);
			return;
		}
	}
	stmts(s, &c->body);
	s->d->env = outer;
	if (c->pred)
		predicate(s, c);
	sema_speculation_clause(s, c);
	sema_alloca_clause_end(s, c);
	sema_xlate_expand(s, c->pred, &c->body);
}
