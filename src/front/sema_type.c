/*
 * sema_type.c -- kernel data: pointers, members, arrays, casts, sizeof,
 * offsetof, stringof, enumerators, and the types of builtins such as
 * curthread.
 *
 * The value model cg relies on: an expression of struct, union or array
 * type stands for the kernel address of that object (it is never copied
 * whole); member access, indexing and `&` compute addresses, and only a
 * scalar at the end of the chain is read from memory, with
 * bpf_probe_read_kernel, so a bad pointer is a fault, not a crash.
 * Sema marks such reads by leaving the member (a struct cmember) in
 * node.cg of each N_MEMBER.
 */
#include <stdio.h>
#include <string.h>

#include "front/ctype.h"
#include "front/sema_impl.h"

static bool is_char(const struct dtype *t)
{
	return t->kind == T_INT && t->size == 1;
}

bool sema_is_char_ptr(const struct dtype *t)
{
	return (t->kind == T_PTR || t->kind == T_ARRAY) && t->ct &&
	       is_char(&t->ct->elem);
}

/* An expression whose value is an address cg can compute without
 * reading it: the operand of & and of '.'. */
bool sema_is_mem_lvalue(const struct node *n)
{
	return (n->kind == N_MEMBER && n->cg) ||
	       (n->kind == N_UNARY && n->op == '*') ||
	       (n->kind == N_INDEX && n->symkind == SYM_NONE &&
		(n->a->type.kind == T_PTR || n->a->type.kind == T_ARRAY));
}

static const struct dtype *pointee(struct sema *s, struct node *n,
				   const char *op)
{
	const struct dtype *t = &n->type;

	if ((t->kind != T_PTR && t->kind != T_ARRAY) || !t->ct)
		diag_fail(s->d, n->line, n->col, "D_DEREF_NONPTR",
			  "%s operator cannot be applied to operand of type "
			  "\"%s\"", op, dtype_name(t));
	if (t->ct->elem.kind == T_VOID)
		diag_fail(s->d, n->line, n->col, "D_DEREF_VOID",
			  "cannot dereference pointer to type \"%s\"",
			  dtype_name(&t->ct->elem));
	return &t->ct->elem;
}

/* a.m and p->m, n->a already typed */
void sema_member(struct sema *s, struct node *n)
{
	const struct dtype *agg;

	/* the checks and words of dt_cook_op2's DT_TOK_PTR / DT_TOK_DOT */
	if (n->op == OP_ARROW) {
		if (n->a->type.kind != T_PTR)
			diag_fail(s->d, n->line, n->col, "D_OP_PTR",
				  "operator -> must be applied to a pointer");
		agg = pointee(s, n->a, "->");
	} else {
		agg = &n->a->type;
	}
	if (agg->kind != T_STRUCT || !agg->ct || dtype_is_float(agg)) {
		if (n->op == OP_ARROW)
			diag_fail(s->d, n->line, n->col, "D_OP_SOU",
				  "operator -> cannot be applied to pointer to "
				  "type \"%s\"; must be applied to a struct or "
				  "union pointer", dtype_name(agg));
		diag_fail(s->d, n->line, n->col, "D_OP_SOU",
			  "operator . cannot be applied to type \"%s\"; must "
			  "be applied to a struct or union", dtype_name(agg));
	}
	if (!agg->ct->complete)
		diag_fail(s->d, n->line, n->col, "D_OP_INCOMPLETE",
			  "operator %s cannot be applied to a forward "
			  "declaration: no %s definition is available",
			  n->op == OP_ARROW ? "->" : ".", dtype_name(agg));
	struct cmember *m = arena_alloc(s->a, sizeof(*m));

	if (!ctype_member(agg, n->str, m))
		diag_fail(s->d, n->line, n->col, "D_MEMBER_NAME",
			  "%s is not a member of %s", n->str, dtype_name(agg));
	n->cg = m;
	n->type = m->type;
}

/* Part of a variable with a fixed place (a member or element of a global
 * or this-> struct or array): & gives the address of that place. */
bool sema_is_var_place(struct sema *s, const struct node *n)
{
	return n->symkind == SYM_STATIC;
}

/* *p -- with dt_cook_op1's words, which are not those of [ ] and -> */
void sema_deref(struct sema *s, struct node *n)
{
	const struct dtype *t = &n->a->type;

	sema_expr(s, n->a);
	if ((t->kind != T_PTR && t->kind != T_ARRAY) || !t->ct)
		diag_fail(s->d, n->a->line, n->a->col, "D_DEREF_NONPTR",
			  "cannot dereference non-pointer type");
	if (t->ct->elem.kind == T_VOID)
		diag_fail(s->d, n->a->line, n->a->col, "D_DEREF_VOID",
			  "cannot dereference pointer to void");
	n->type = t->ct->elem;
}

void sema_addrof(struct sema *s, struct node *n)
{
	/* DTrace's variables and aggregations have no address a program may
	 * keep, even where ours have one: only their members and elements
	 * do (dt_cook_op1, before it cooks the operand) */
	if (n->a->kind == N_AGG)
		diag_fail(s->d, n->line, n->col, "D_ADDROF_VAR",
			  "cannot take address of dynamic variable");
	sema_expr(s, n->a);
	if (n->a->symkind == SYM_GLOBAL || n->a->symkind == SYM_DVAR)
		diag_fail(s->d, n->line, n->col, "D_ADDROF_VAR",
			  "cannot take address of dynamic variable");
	if (sema_is_dynamic(n->a))
		diag_fail(s->d, n->line, n->col, "D_ADDROF_VAR",
			  "cannot take address of dynamic object");
	if (!sema_is_mem_lvalue(n->a) && !sema_is_var_place(s, n->a))
		diag_fail(s->d, n->line, n->col, "D_ADDROF_LVAL",
			  "unacceptable operand for unary & operator");
	if (n->a->kind == N_MEMBER && n->a->cg &&
	    ((struct cmember *)n->a->cg)->bit_width)
		diag_fail(s->d, n->line, n->col, "D_ADDROF_BITFIELD",
			  "cannot take address of bit-field");
	n->type = ctype_ptr_to(s->types, &n->a->type);
}

/* p[i] and array[i] in kernel memory */
void sema_index_mem(struct sema *s, struct node *n)
{
	if (n->args.n != 1)
		diag_fail(s->d, n->line, n->col, "D_ARR_BADREF",
			  "pointers and arrays take a single index");
	sema_expr(s, n->args.v[0]);
	sema_need_int(s, n->args.v[0], "[ ]");
	n->type = *pointee(s, n->a, "[ ]");
	/* arrays of 0 or 1 element are left alone: they are how C spells
	 * a variable-length tail (dt_cook_op2's DT_TOK_LBRAC) */
	if (n->a->type.kind == T_ARRAY && n->args.v[0]->kind == N_INT &&
	    n->a->type.ct->count > 1 &&
	    (uint64_t)n->args.v[0]->ival >= n->a->type.ct->count)
		diag_fail(s->d, n->line, n->col, "D_ARR_BOUNDS",
			  "index outside array bounds: %llu, max is %u",
			  (unsigned long long)n->args.v[0]->ival,
			  (unsigned)n->a->type.ct->count);
}

/* stringof(e) and (string)e: a kernel char pointer or array read as a
 * string of at most strsize characters (a char [] of fewer: its own
 * count); a string is itself */
void sema_stringof(struct sema *s, struct node *n)
{
	sema_expr(s, n->a);
	if (n->a->type.kind == T_STRING) {
		n->type = n->a->type;
		return;
	}
	if (!sema_is_char_ptr(&n->a->type) && n->a->type.kind != T_PTR &&
	    n->a->type.kind != T_INT)
		diag_fail(s->d, n->line, n->col, "D_STRINGOF_TYPE",
			  "cannot apply stringof to a value of type %s",
			  dtype_name(&n->a->type));
	sema_stringof_typed(s, n);
}

/* A char * or char [] where a string is wanted (printf's %s, trace,
 * comparisons with strings): read it as stringof() would. */
struct node *sema_as_string(struct sema *s, struct node *n)
{
	if (!sema_is_char_ptr(&n->type))
		return n;
	struct node *w = arena_alloc(s->a, sizeof(*w));

	w->kind = N_STRINGOF;
	w->line = n->line;
	w->col = n->col;
	w->a = n;
	sema_stringof_typed(s, w);
	return w;
}

void sema_stringof_typed(struct sema *s, struct node *w)
{
	uint32_t size = UINT32_MAX;
	const struct dtype *t = &w->a->type;

	if (t->kind == T_ARRAY && t->ct->count)
		size = t->ct->count + 1;
	w->type = sema_string(s, size);
}

/* An identifier that names an enumerator: it becomes its value. */
bool sema_enum_ident(struct sema *s, struct node *n)
{
	int64_t v;
	struct dtype t;

	if (!ctypes_enum_value(s->types, n->str, &v, &t))
		return false;
	n->kind = N_INT;
	n->ival = v;
	n->type = t;
	return true;
}

void sema_offsetof(struct sema *s, struct node *n)
{
	struct dtype t;
	struct cmember m;

	if (!ctypes_resolve(s->types, n->decl_type->text, &t) ||
	    t.kind != T_STRUCT || t.size == 0)
		diag_fail(s->d, n->line, n->col, "D_OFFSETOF_TYPE",
			  "offsetof operand must be a struct or union type");
	if (!ctype_member(&t, n->str, &m))
		diag_fail(s->d, n->line, n->col, "D_UNKNOWN",
			  "failed to resolve member %s in %s", n->str,
			  dtype_name(&t));
	if (m.bit_width)
		diag_fail(s->d, n->line, n->col, "D_OFFSETOF_BITFIELD",
			  "cannot take offset of a bit-field: %s", n->str);
	n->kind = N_INT;
	n->ival = m.off;
	n->type = type_int(8, false);
	n->type.name = "size_t";
}

/*
 * dscope's own kernel subroutines, used by the D library (__psargs(),
 * __bio_disk(), ...), and d_path(): one argument, a kernel pointer (a CPU
 * number for __cpu_*), and a string, an int or a pointer to a D library
 * type, as their rows' prototypes say (d/funcs.h, which says what each
 * does; cg_mem.c reads the kernel's memory).
 */
bool sema_kernel_subr(struct sema *s, struct node *n)
{
	const struct dfunc_row *row = dfunc_row(n->fn);
	char result[48], param[48];

	if (!row || (row->kind != DFK_PRIVATE && n->fn != DF_D_PATH))
		return false;
	/* the row's prototype: "result(param)", a pointer result "T *" */
	size_t rlen = strcspn(row->proto, "(");
	size_t plen = strcspn(row->proto + rlen + 1, ")");

	snprintf(result, sizeof(result), "%.*s", (int)rlen, row->proto);
	snprintf(param, sizeof(param), "%.*s", (int)plen, row->proto + rlen + 1);
	if (rlen > 2 && strcmp(result + rlen - 2, " *") == 0)
		result[rlen - 2] = 0;
	sema_check_nargs(s, n, 1, 1);
	sema_expr(s, n->args.v[0]);
	bool by_cpu = strcmp(param, "int") == 0;

	if (by_cpu ? !type_is_int(&n->args.v[0]->type)
		   : n->args.v[0]->type.kind != T_PTR)
		diag_fail(s->d, n->line, n->col, "D_PROTO_ARG",
			  "%s( ) argument #1 is incompatible with prototype:\n"
			  "\tprototype: %s\n\t argument: %s", n->str,
			  param, dtype_name(&n->args.v[0]->type));
	if (strcmp(result, "string") == 0) {
		n->type = sema_string(s, UINT32_MAX);
	} else if (strcmp(result, "int") == 0) {
		n->type = type_int(4, true);
	} else {	/* a pointer to the D library's type */
		struct dtype t;

		if (!ctypes_resolve(s->types, result, &t))
			diag_fail(s->d, n->line, n->col, "D_UNKNOWN",
				  "%s( ) needs the D library's %s", n->str,
				  result);
		n->type = ctype_ptr_to(s->types, &t);
	}
	return true;
}
