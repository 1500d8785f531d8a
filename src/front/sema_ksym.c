/*
 * sema_ksym.c -- kernel variables by name: `name and module`name.
 *
 * In D a backquoted name is a kernel symbol (dt_xcook_ident's
 * DT_IDENT_SYMBOL): its address comes from the kernel's symbol table
 * (/proc/kallsyms), its type from the kernel's type information.  The
 * reference is the object at that address, exactly as if the program had
 * written *(T *)0xADDR: an lvalue in kernel memory, so &`x, `x.member,
 * `p->member and `a[i] mean what they mean in C, and the value is read
 * when the clause runs, by a kernel read that reports a fault as DTrace's
 * runtime error.  It is not writable (D_OP_WRITE, sema_var.c).
 *
 * The type, in this order:
 *   1. the kernel's BTF VAR of that name.  A per-CPU variable (the only
 *      kind most kernels' BTF describes: pahole encodes global variables
 *      only when asked) is refused: its symbol is an offset into each
 *      CPU's area, not an address.
 *   2. an "extern T name;" declaration, the program's or the D library's
 *      (dlib.c declares well-known ones).  DTrace gives a symbol whose
 *      module has no type data the type its module's externs declare
 *      (dtrace_symbol_type, dt_module_extern); this is that rule.
 *   3. else D_SYM_NOTYPES, naming the declaration that would supply it.
 * dtrace-utils falls back to uintptr_t for a kernel symbol without type
 * data; that reads 8 bytes of a 4-byte int and prints a wrong number, so
 * here it is an error instead.
 *
 * Cost: /proc/kallsyms and BTF are read only when a program names a
 * kernel symbol; the D library's externs resolve their types on use.
 */
#include <string.h>

#include "front/ctype.h"
#include "front/sema_impl.h"
#include "kern/ktypes.h"
#include "obj/ksym.h"

/* Kernel addresses are the top half of the address space (x86-64); a data
 * symbol below it is a per-CPU variable's offset. */
#define KERNEL_HALF 0xffff800000000000ull

/* "mod`name" -> mod, name; "`name" and "name" -> NULL, name */
static const char *split_scope(struct sema *s, const char *str,
			       const char **mod)
{
	const char *tick = strrchr(str, '`');

	*mod = tick && tick > str ? arena_strndup(s->a, str,
						  (size_t)(tick - str)) : NULL;
	return tick ? tick + 1 : str;
}

static bool same_scope(const char *a, const char *b)
{
	return !a || !b || strcmp(a, b) == 0;
}

/* The extern declaration of mod`name, the program's before the
 * library's: the last one wins. */
static struct top_decl *find_extern(struct sema *s, const char *mod,
				    const char *name)
{
	for (int i = s->nexterns - 1; i >= 0; i--) {
		struct top_decl *td = s->externs[i];
		const char *dmod, *dname = split_scope(s, td->name, &dmod);

		if (strcmp(dname, name) == 0 && same_scope(dmod, mod))
			return td;
	}
	return NULL;
}

/* extern T name: the program's are resolved now, for their diagnostics
 * and a redeclaration's; the library's when a program uses one. */
void sema_extern_decl(struct sema *s, struct top_decl *td)
{
	if (!s->in_library) {
		const char *mod, *name = split_scope(s, td->name, &mod);
		struct top_decl *prev = find_extern(s, mod, name);

		td->init_type = arena_alloc(s->a, sizeof(*td->init_type));
		ctypes_resolve_decl(s->types, td->type, td->name, s->d,
				    td->init_type);
		if (prev && prev->init_type &&
		    !dtype_equal(prev->init_type, td->init_type))
			diag_fail(s->d, td->line, td->col, "D_DECL_IDRED",
				  "identifier redeclared: %s\n\t current: %s\n"
				  "\tprevious: %s", td->name,
				  dtype_name(td->init_type),
				  dtype_name(prev->init_type));
	}
	*ARENA_PUSH(s->a, s->externs, s->nexterns, s->externs_cap) = td;
}

/* The symbol's address, or a sentence on why there is none. */
static uint64_t symbol_addr(struct sema *s, const struct node *n,
			    const char *mod, const char *name,
			    const char **kmod)
{
	uint64_t addr = 0;
	const char *why = NULL;

	/* a bare "`" names nothing, on any kernel */
	switch (!*name ? KSYM_VAR_NONE : ksym_var_addr(mod, name, &addr, kmod)) {
	case KSYM_VAR_OK:
		return addr;
	case KSYM_VAR_NONE:
		why = "Unknown symbol name";
		break;
	case KSYM_VAR_FUNC:
		why = "a kernel function, not a variable";
		break;
	case KSYM_VAR_NO_DATA:
		why = "this kernel's symbol table (/proc/kallsyms) lists no "
		      "data symbols, only functions (it was built without "
		      "CONFIG_KALLSYMS_ALL), so no kernel variable can be "
		      "named; kernel types, functions, and data reached "
		      "through probe arguments or curthread still work";
		break;
	case KSYM_VAR_HIDDEN:
		why = "/proc/kallsyms hides kernel addresses "
		      "(sysctl kernel.kptr_restrict)";
		break;
	}
	diag_fail(s->d, n->line, n->col, "D_IDENT_UNDEF",
		  "failed to resolve %s: %s", n->str, why);
}

static _Noreturn void refuse_percpu(struct sema *s, const struct node *n,
				    const char *kmod, const char *name)
{
	diag_fail(s->d, n->line, n->col, "D_SYM_BADREF",
		  "%s`%s is a per-CPU variable: its symbol is an offset into "
		  "each CPU's area, which dscope cannot read", kmod, name);
}

/* The variable's type: BTF, else an extern declaration (see above). */
static struct dtype symbol_type(struct sema *s, const struct node *n,
				const char *kmod, const char *name)
{
	bool percpu = false;
	int id = strcmp(kmod, "vmlinux") == 0 ? ktype_var_id(name, &percpu)
					      : -1;
	struct top_decl *td;

	if (percpu)
		refuse_percpu(s, n, kmod, name);
	if (id > 0)
		return ctypes_kernel_type(s->types, (uint32_t)id);
	td = find_extern(s, kmod, name);
	if (!td)
		diag_fail(s->d, n->line, n->col, "D_SYM_NOTYPES",
			  "no symbolic type information is available for "
			  "%s`%s: the kernel's BTF does not describe it; "
			  "declare its type, as in \"extern unsigned long "
			  "%s;\"", kmod, name, name);
	if (!td->init_type) {
		td->init_type = arena_alloc(s->a, sizeof(*td->init_type));
		ctypes_resolve_decl(s->types, td->type, td->name, s->d,
				    td->init_type);
	}
	return *td->init_type;
}

bool sema_ksym_ref(struct sema *s, struct node *n)
{
	const char *tick = strrchr(n->str, '`'), *mod, *kmod, *name;

	if (!tick)
		return false;
	if (tick > n->str && tick[-1] == '`')
		diag_fail(s->d, n->line, n->col, "D_SYM_BADREF",
			  "failed to resolve %s: user symbols are not "
			  "supported", n->str);
	name = split_scope(s, n->str, &mod);
	uint64_t addr = symbol_addr(s, n, mod, name, &kmod);

	if (addr < KERNEL_HALF)
		refuse_percpu(s, n, kmod, name);
	struct dtype t = symbol_type(s, n, kmod, name);
	struct node *at = arena_alloc(s->a, sizeof(*at));

	/* `x is *(T *)0xADDR */
	*at = (struct node){ .kind = N_INT, .ival = (int64_t)addr,
			     .line = n->line, .col = n->col,
			     .type = ctype_ptr_to(s->types, &t) };
	n->kind = N_UNARY;
	n->op = '*';
	n->a = at;
	sema_deref(s, n);
	return true;
}
