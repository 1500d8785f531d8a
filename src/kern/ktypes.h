/*
 * ktypes.h -- kernel types from BTF (/sys/kernel/btf/vmlinux).
 *
 * The kernel describes its own structures; dscope reads member offsets from
 * there instead of compiling in a layout that changes between kernels.
 *
 * The BTF is a process-wide object, not a session's: it describes the one
 * running kernel, and at some 5 MB parsed it is loaded once however many
 * sessions a process holds.  The first call loads it, under pthread_once,
 * so sessions in several threads may ask at once; it is read-only after,
 * and kept for the life of the process (nothing frees it).
 */
#ifndef DSCOPE_KTYPES_H
#define DSCOPE_KTYPES_H

#include <stdbool.h>
#include <stdint.h>

#define KTYPE_MAX_HOPS 4

/* A member path such as "task_struct.real_parent->tgid": each hop is one
 * read at an offset from the pointer the previous hop produced (the first
 * from the struct named first).  '.' adds offsets within a hop, '->'
 * starts a new hop. */
struct ktype_field {
	int nhops;
	uint32_t off[KTYPE_MAX_HOPS];
	uint32_t size;		/* bytes read by the last hop */
	bool is_signed;
};

/* 0, or -1 when BTF is missing or lacks a member on the path. */
int ktype_field(const char *path, struct ktype_field *f);

struct btf;

/* The kernel's BTF, loaded on first call and kept; NULL when there is none. */
const struct btf *ktype_btf(void);

/* Is `name` a typedef of the kernel's ("uint", "u_int", "gfp_t")?  Loads
 * the BTF on first use; false without BTF. */
bool ktype_is_typedef(const char *name);

/* The BTF id of the VAR that describes kernel variable `name`, or -1;
 * *percpu says it is a per-CPU variable (its symbol an offset into each
 * CPU's area, not an address).  Most kernels' BTF describes per-CPU
 * variables only. */
int ktype_var_id(const char *name, bool *percpu);

/* The BTF id of kernel function `name` (a kfunc to call), or -1. */
int ktype_func_id(const char *name);

#endif /* DSCOPE_KTYPES_H */
