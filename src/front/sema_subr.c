/*
 * sema_subr.c -- D subroutines: argument checks and result types.
 *
 * Each subroutine's row (d/funcs.h) has its prototype written as in
 * libdtrace's dt_open.c ("string(const char *, int, [int])"), so the
 * argument count, the argument types and the messages for a mismatch come
 * out as dtrace(1) prints them.  A bracketed parameter is optional, "@"
 * takes any type and "..." any number of further arguments.
 *
 * Strings.  A string result gets the smallest bound that holds every value
 * it can take (strjoin of a 16- and a 32-byte string: 47 bytes), never more
 * than strsize characters; cg allocates exactly that and truncates to it.
 *
 * Functions DTrace knows but dscope refuses (their rows say why) are
 * checked too: their arguments as DTrace does, so every compile-time
 * error of the script is found first; cg then stops with the row's
 * sentence.
 */
#include <string.h>

#include "front/ctype.h"
#include "front/sema_impl.h"

/* A prototype taken apart. */
#define PROTO_MAX 4
struct proto {
	char ret[48];
	char param[PROTO_MAX][48];	/* as shown in messages */
	int nreq, nmax;			/* nmax < 0: varargs */
};

static void trim_copy(char *dst, size_t cap, const char *s, size_t n)
{
	while (n && *s == ' ')
		s++, n--;
	while (n && (s[n - 1] == ' ' || s[n - 1] == '[' || s[n - 1] == ']'))
		n--;
	if (n && *s == '[')
		s++, n--;
	if (n >= cap)
		n = cap - 1;
	memcpy(dst, s, n);
	dst[n] = 0;
}

/* "string(const char *, int, [int])" -> ret, params, counts.  A "const"
 * qualifier is not shown, as in dtrace(1)'s messages. */
static void proto_parse(const char *text, struct proto *p)
{
	const char *open = strchr(text, '('), *q = open + 1;

	memset(p, 0, sizeof(*p));
	trim_copy(p->ret, sizeof(p->ret), text, (size_t)(open - text));
	while (*q && *q != ')') {
		size_t n = strcspn(q, ",)");
		bool opt = memchr(q, '[', n) != NULL;

		if (n >= 3 && strncmp(q + strspn(q, " "), "...", 3) == 0) {
			p->nmax = -1;
			break;
		}
		if (strncmp(q + strspn(q, " ["), "const ", 6) == 0) {
			q = strstr(q, "const ") + 6;
			n = strcspn(q, ",)");
		}
		trim_copy(p->param[p->nmax], sizeof(p->param[0]), q, n);
		p->nmax++;
		if (!opt)
			p->nreq = p->nmax;
		q += n;
		if (*q == ',')
			q++;
	}
}

static const char *type_name(const struct dtype *t)
{
	if (t->kind == T_VOID || t->kind == T_NONE)
		return "void";
	if (t->kind == T_STRING)
		return "string";
	return t->name ? t->name : "int";
}

static bool is_string_param(const char *param)
{
	return strcmp(param, "string") == 0 || strcmp(param, "char *") == 0;
}

/* A char * where a string is expected: the string it points to, read
 * from kernel memory (cg_mem.c does the reading). */
static struct node *string_of_pointer(struct sema *s, struct node *a)
{
	struct node *w = node_new(s->a, N_STRINGOF, a->line, a->col);

	w->a = a;
	w->type = sema_string(s, UINT32_MAX);
	return w;
}

/* Is an argument of type t acceptable for parameter `param`? */
static bool arg_compat(const char *param, const struct node *arg)
{
	const struct dtype *t = &arg->type;
	size_t n = strlen(param);

	if (strcmp(param, "@") == 0)
		return t->kind != T_VOID;
	if (is_string_param(param))
		return t->kind == T_STRING || t->kind == T_PTR ||
		       sema_is_char_ptr(t) ||	/* a char [] decays */
		       (arg->kind == N_INT && arg->ival == 0);	/* NULL */
	if (n && param[n - 1] == '*') {
		if (t->kind == T_INT)
			return arg->kind == N_INT && arg->ival == 0;
		/* an array decays to a pointer; D's string is a char array */
		if (t->kind == T_ARRAY || t->kind == T_STRING)
			return strcmp(param, "void *") == 0;
		return t->kind == T_PTR &&
		       (!t->name || strcmp(t->name, param) == 0 ||
			strcmp(t->name, "void *") == 0 ||
			strcmp(param, "void *") == 0);
	}
	return type_is_int(t);
}

static void check_args(struct sema *s, struct node *n, const struct proto *p)
{
	int argc = n->args.n;
	bool fixed = p->nmax >= 0 && p->nreq == p->nmax;
	int lo = p->nreq, hi = p->nmax < 0 ? 1 << 30 : p->nmax;

	if (argc < lo || argc > hi)
		diag_fail(s->d, n->line, n->col, "D_PROTO_LEN",
			  "%s( ) prototype mismatch: %d arg%s passed, %s%d expected",
			  n->str, argc, argc == 1 ? "" : "s",
			  fixed ? "" : argc < lo ? "at least " : "at most ",
			  argc < lo ? lo : hi);
	for (int i = 0; i < argc; i++) {
		struct node *a = n->args.v[i];

		sema_expr(s, a);
		/* the destination of bcopy() and copyinto() is alloca()
		 * memory, which a string never is (dtrace-utils' dt_cg) */
		if (a->type.kind == T_STRING &&
		    ((n->fn == DF_BCOPY && i == 1) ||
		     (n->fn == DF_COPYINTO && i == 2)))
			diag_fail(s->d, n->line, n->col, "D_PROTO_ARG",
				  "%s( ) argument #%d is incompatible with "
				  "prototype:\n\tprototype: alloca pointer\n"
				  "\t argument: non-alloca pointer", n->str, i + 1);
		if (i >= PROTO_MAX || !p->param[i][0] || arg_compat(p->param[i], a)) {
			if (is_string_param(p->param[i]) && a->type.kind == T_ARRAY)
				n->args.v[i] = sema_as_string(s, a);
			else if (is_string_param(p->param[i]) &&
				 a->type.kind != T_STRING)
				n->args.v[i] = string_of_pointer(s, a);
			continue;
		}
		diag_fail(s->d, n->line, n->col, "D_PROTO_ARG",
			  "%s( ) argument #%d is incompatible with prototype:\n"
			  "\tprototype: %s\n\t argument: %s",
			  n->str, i + 1, p->param[i], type_name(&a->type));
	}
}

static uint32_t min_u32(uint32_t a, uint32_t b)
{
	return a < b ? a : b;
}

/* The bound of a string result (NUL included). */
static uint32_t string_bound(struct sema *s, const struct node *n)
{
	uint32_t cap = sema_string(s, UINT32_MAX).size;
	const struct node *a0 = n->args.n > 0 ? n->args.v[0] : NULL;
	uint32_t a0size = a0 && a0->type.kind == T_STRING ? a0->type.size : cap;

	switch (n->fn) {
	case DF_STRJOIN: {
		const struct node *a1 = n->args.v[1];
		uint32_t a1size = a1->type.kind == T_STRING ? a1->type.size : cap;

		return min_u32(a0size + a1size - 1, cap);
	}
	case DF_LLTOSTR:
		return min_u32(21, cap);	/* "-9223372036854775808" */
	case DF_INET_NTOA:
		return min_u32(16, cap);	/* "255.255.255.255" */
	case DF_INET_NTOA6:
	case DF_INET_NTOP:
		return min_u32(46, cap);	/* INET6_ADDRSTRLEN */
	case DF_LINK_NTOP:
		return min_u32(60, cap);	/* 20 bytes "xx:" */
	case DF_STRTOK:
		return cap;	/* strtok(NULL, d): any string of the clause */
	case DF_COPYINSTR: {
		const struct node *max = n->args.n > 1 ? n->args.v[1] : NULL;

		if (max && max->kind == N_INT && max->ival >= 0 &&
		    (uint64_t)max->ival < cap)
			return (uint32_t)max->ival + 1;
		return cap;
	}
	case DF_CLEANPATH:
	case DF_DIRNAME:
	case DF_BASENAME:
		return min_u32(a0size < 2 ? 2 : a0size, cap);	/* "." */
	default:
		return min_u32(a0size, cap);	/* a part of argument 0 */
	}
}

static struct dtype result_type(struct sema *s, const struct node *n,
				const struct proto *p)
{
	static const struct {
		const char *name;
		uint8_t size;
		bool is_signed;
	} ints[] = {
		{ "int", 4, true }, { "size_t", 8, false },
		{ "int64_t", 8, true }, { "uint16_t", 2, false },
		{ "uint32_t", 4, false }, { "uint64_t", 8, false },
		{ "dev_t", 4, false },
	};
	struct dtype t = { 0 };

	if (strcmp(p->ret, "void") == 0) {
		t.kind = T_VOID;
		t.name = "void";
		return t;
	}
	if (strcmp(p->ret, "string") == 0)
		return type_string(string_bound(s, n));
	for (size_t i = 0; i < sizeof(ints) / sizeof(ints[0]); i++)
		if (strcmp(ints[i].name, p->ret) == 0) {
			t = type_int(ints[i].size, ints[i].is_signed);
			t.name = ints[i].name;
			return t;
		}
	t = type_int(8, false);		/* a pointer */
	t.kind = T_PTR;
	t.name = "void *";
	return t;
}

/*
 * stack([n]): the kernel stack, n frames (option stackframes, 20, by
 * default).  Its value is n pc words and one zero word that ends the
 * stack, so that a full stack copied as a string (NUL kept in its last
 * byte) loses nothing.  ustack([n[, strsize]]): the user stack, n frames
 * (ustackframes, 100); its value starts with the pid, whose maps name the
 * frames.  Either is cut to maxframes without a word, as in DTrace, and
 * to the 127 a stack here can hold.
 */
#define STACKFRAMES_MAX 127

static void stack_call(struct sema *s, struct node *n)
{
	bool user = n->fn == DF_USTACK;
	int64_t frames = user ? s->ustackframes : s->stackframes;

	sema_check_nargs(s, n, 0, user ? 2 : 1);
	if (n->args.n >= 1) {
		struct node *a = n->args.v[0];

		/* dt_cg_stack_arg: a positive constant; then ustack()'s
		 * string size, a constant not below 0 (unused, as there) */
		sema_expr(s, a);
		if (a->kind != N_INT || a->ival <= 0)
			diag_fail(s->d, n->line, n->col,
				  user ? "D_USTACK_FRAMES" : "D_STACK_SIZE",
				  "%s( ) argument #1 must be a non-zero "
				  "positive integer constant", n->str);
		frames = a->ival;
	}
	if (n->args.n == 2) {
		struct node *a = n->args.v[1];

		sema_expr(s, a);
		if (a->kind != N_INT || a->ival < 0)
			diag_fail(s->d, n->line, n->col, "D_USTACK_STRSIZE",
				  "ustack( ) argument #2 must be a positive "
				  "integer constant");
	}
	if (frames > s->maxframes)
		frames = s->maxframes;
	if (frames > STACKFRAMES_MAX)
		frames = STACKFRAMES_MAX;
	if (frames < 1)
		frames = 1;
	memset(&n->type, 0, sizeof(n->type));
	n->type.kind = T_STACK;
	n->type.size = (uint32_t)(frames + 1 + user) * 8;
	n->type.name = user ? "ustack" : "stack";
	n->type.user = user;
}

/*
 * sym(), func(), mod(), usym(), ufunc(), umod(), uaddr(): an address that
 * prints as a symbol (types.h, enum dsym_kind).  A user address carries
 * the pid whose maps name it, as a one-frame ustack() does.
 */
static void symbol_call(struct sema *s, struct node *n, bool user,
			enum dsym_kind kind)
{
	sema_check_nargs(s, n, 1, 1);
	sema_expr(s, n->args.v[0]);
	if (n->args.v[0]->type.kind != T_INT && n->args.v[0]->type.kind != T_PTR)
		diag_fail(s->d, n->line, n->col, "D_PROTO_ARG",
			  "%s( ) argument #1 is incompatible with "
			  "prototype:\n\tprototype: uintptr_t\n\t"
			  " argument: %s", n->str,
			  n->args.v[0]->type.name ? n->args.v[0]->type.name
						  : "void");
	memset(&n->type, 0, sizeof(n->type));
	n->type.kind = user ? T_STACK : T_SYM;
	n->type.size = user ? 16 : 8;
	n->type.user = user;
	n->type.sym = (uint8_t)kind;
	n->type.name = user ? "_usymaddr" : "_symaddr";
	if (kind == DSYM_CGPATH)
		n->type.name = "string";
}

/* strtok(NULL, d) goes on with the string of the clause's last strtok:
 * its NULL is left a plain 0, for cg to tell from a string */
static void strtok_args(struct sema *s, struct node *n)
{
	struct node *a = n->args.v[0], *z;

	if (a->kind != N_STRINGOF || !sema_is_null(a->a))
		return;
	z = node_new(s->a, N_INT, a->line, a->col);
	z->type = type_int(4, true);
	n->args.v[0] = z;
}

void sema_subr_call(struct sema *s, struct node *n, bool as_stmt)
{
	const struct dfunc_row *row = dfunc_row(n->fn);
	struct proto p;

	(void)as_stmt;
	if (!n->str)
		diag_fail(s->d, n->line, n->col, "D_FUNC_IDENT",
			  "function designator is not of function type");
	switch (n->fn) {
	case DF_STACK:
	case DF_USTACK:
		stack_call(s, n);
		return;
	case DF_SYM: case DF_FUNC:
		symbol_call(s, n, false, DSYM_FUNC);
		return;
	case DF_MOD:
		symbol_call(s, n, false, DSYM_MOD);
		return;
	case DF_USYM: case DF_UFUNC:
		symbol_call(s, n, true, DSYM_FUNC);
		return;
	case DF_UMOD:
		symbol_call(s, n, true, DSYM_MOD);
		return;
	case DF_UADDR:
		symbol_call(s, n, true, DSYM_ADDR);
		return;
	case DF_CGROUP_PATH:
		symbol_call(s, n, false, DSYM_CGPATH);
		return;
	default:
		break;
	}
	/* an aggregating function is no value; the private ones are
	 * sema_kernel_subr's */
	if (!row || row->kind == DFK_AGG || row->kind == DFK_PRIVATE)
		diag_fail(s->d, n->line, n->col, "D_FUNC_UNDEF",
			  "failed to resolve %s: Unknown function name", n->str);
	proto_parse(row->proto, &p);
	check_args(s, n, &p);
	switch (n->fn) {
	case DF_STRTOK:
		strtok_args(s, n);
		break;
	case DF_INET_NTOA6:
		/* the form of the address printed is chosen as the program
		 * is compiled (dt_cg_subr_inet_ntoa6) */
		if (n->args.n > 1 && n->args.v[1]->kind != N_INT)
			diag_fail(s->d, n->line, n->col, "D_PROTO_ARG",
				  "inet_ntoa6( ) argument #2 must be an integer "
				  "constant");
		break;
	case DF_ALLOCA:
		if (n->args.v[0]->kind == N_INT &&
		    (uint64_t)n->args.v[0]->ival > s->scratchsize)
			diag_fail(s->d, n->line, n->col, "D_ALLOCA_SIZE",
				  "alloca(%llu) size larger than scratchsize %u",
				  (unsigned long long)n->args.v[0]->ival,
				  s->scratchsize);
		break;
	default:
		break;
	}
	n->type = result_type(s, n, &p);
}

/* ---- print() and tracemem(): actions that record memory ---- */

static _Noreturn void proto_arg_fail(struct sema *s, const struct node *n,
				     int argno, const char *tag,
				     const char *proto, const struct dtype *t)
{
	diag_fail(s->d, n->line, n->col, tag,
		  "%s( ) argument #%d is incompatible with prototype:\n"
		  "\tprototype: %s\n\t argument: %s",
		  n->str, argno, proto, dtype_name(t));
}

/* print(p): p is a pointer to an object of known, non-zero size; cg
 * records its bytes, the consumer prints them by type. */
static void print_action(struct sema *s, struct node *n)
{
	struct node *a;

	sema_check_nargs(s, n, 1, 1);
	a = n->args.v[0];
	sema_expr(s, a);
	if (a->type.kind != T_PTR || !a->type.ct)
		proto_arg_fail(s, n, 1, "D_PROTO_ARG", "void *", &a->type);
	const struct dtype *obj = &a->type.ct->elem;

	if (obj->kind == T_VOID || obj->size == 0)
		diag_fail(s->d, n->line, n->col, "D_PRINT_SIZE",
			  "print( ) argument #1 reference has type '%s' with "
			  "size 0; cannot print( ) it.", dtype_name(obj));
}

/* tracemem(addr, size [, dsize]): size a positive integer constant */
static void tracemem_action(struct sema *s, struct node *n)
{
	struct node *addr, *size;

	sema_check_nargs(s, n, 2, 3);
	addr = n->args.v[0];
	size = n->args.v[1];
	sema_expr(s, addr);
	if (addr->type.kind != T_INT && addr->type.kind != T_PTR &&
	    addr->type.kind != T_ARRAY)
		proto_arg_fail(s, n, 1, "D_TRACEMEM_ADDR", "pointer or integer",
			       &addr->type);
	sema_expr(s, size);
	if (!type_is_int(&size->type))
		proto_arg_fail(s, n, 2, "D_PROTO_ARG", "size_t", &size->type);
	if (size->kind != N_INT || size->ival <= 0)
		diag_fail(s->d, n->line, n->col, "D_TRACEMEM_SIZE",
			  "tracemem( ) argument #2 must be a non-zero positive "
			  "integral constant expression");
	if (size->ival > PRINT_MAX)
		diag_fail(s->d, n->line, n->col, "D_TRACEMEM_SIZE",
			  "tracemem( ) argument #2 is larger than %d bytes",
			  PRINT_MAX);
	if (n->args.n > 2) {
		sema_expr(s, n->args.v[2]);
		if (!type_is_int(&n->args.v[2]->type))
			proto_arg_fail(s, n, 3, "D_PROTO_ARG", "size_t",
				       &n->args.v[2]->type);
	}
}

bool sema_data_action(struct sema *s, struct node *n)
{
	switch (n->fn) {
	case DF_PRINT:
		print_action(s, n);
		return true;
	case DF_TRACEMEM:
		tracemem_action(s, n);
		return true;
	default:
		return false;
	}
}
