/*
 * ksym.h -- kernel addresses to "module`symbol", and kernel variables'
 * names to addresses (D's `name), from /proc/kallsyms.
 *
 * The table is read on the first lookup (a stack or symbol to print), not
 * at start-up: some 200,000 lines cost tens of milliseconds, which a
 * script that never prints a kernel address should not pay.  Like the
 * kernel's BTF (kern/ktypes.h) it is a process-wide object, not a
 * session's: one kernel's symbols, some 200,000 of them, read once
 * however many sessions ask.  The first lookup fills it, under
 * pthread_once, so sessions in several threads may look up at once; it is
 * read-only after and kept for the life of the process.
 */
#ifndef DSCOPE_KSYM_H
#define DSCOPE_KSYM_H

#include <stdbool.h>
#include <stdint.h>

/* A struct fmt_sym_ops lookup (ctx unused): the symbol at or below addr,
 * its module ("vmlinux" for the core kernel) and its address.  false when
 * addr is below every symbol, or /proc/kallsyms is unreadable or hides
 * addresses (kptr_restrict). */
bool ksym_lookup(void *ctx, uint64_t addr, const char **mod, const char **sym,
		 uint64_t *symaddr);

/* [*start, *end) of kernel function `name` (end: the next symbol's
 * address); false if kallsyms does not list it. */
bool ksym_range(const char *name, uint64_t *start, uint64_t *end);

/* addrs[i] = the address of function names[i] of module mods[i]
 * ("vmlinux" for the core kernel), the lowest if kallsyms lists it twice
 * (text symbols only: not a variable of the same name); 0 if it does not
 * list it.  One pass over a sorted index of the table. */
#include <stddef.h>
void ksym_func_addrs(size_t n, const char *const *mods,
		     const char *const *names, uint64_t *addrs);

/* Where kernel variable `name` lives: a data symbol (kallsyms types d, D,
 * b, B, r, R) of module mod ("vmlinux" for the core kernel, NULL for any,
 * the core kernel first); *kmod is the module that has it.
 * KSYM_VAR_NO_DATA: kallsyms lists no variables at all, only functions
 * and the linker's section bounds (a kernel built without
 * CONFIG_KALLSYMS_ALL), so no name could be found. */
enum ksym_var {
	KSYM_VAR_OK,		/* *addr is set */
	KSYM_VAR_NONE,		/* no such symbol */
	KSYM_VAR_FUNC,		/* a function's name, not a variable's */
	KSYM_VAR_NO_DATA,	/* kallsyms has no data symbols */
	KSYM_VAR_HIDDEN,	/* addresses read 0 (kernel.kptr_restrict) */
};
enum ksym_var ksym_var_addr(const char *mod, const char *name, uint64_t *addr,
			   const char **kmod);

#endif /* DSCOPE_KSYM_H */
