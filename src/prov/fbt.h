/*
 * fbt.h -- function boundary tracing: fbt:MODULE:FUNCTION:entry|return on
 * kprobes (fbt.c).
 */
#ifndef DSCOPE_FBT_H
#define DSCOPE_FBT_H

#include "catalog.h"

/* NULL when this kernel can offer fbt probes; otherwise one sentence
 * saying what it lacks and what to use instead.  Decided by trial. */
const char *fbt_unavailable(void);

/* The catalog's provide hook: the first description naming fbt adds
 * fbt:MODULE:FUNCTION:entry and :return for every function the kernel
 * lets kprobes enter.  Returns pd's module field. */
const char *fbt_provide(struct catalog *cat, const struct probe_desc *pd);

/* A description naming fbt matched nothing: why, in one sentence into
 * buf -- the kernel has no kprobes, or (a function named, no glob) will
 * not trace that function, or has no such function. */
void fbt_why_none(const struct probe_desc *pd, char *buf, size_t n);

/* args[] of an fbt probe, from the function's BTF prototype. */
int fbt_load_args(struct catalog *cat, struct probe *p);

/* addrs[i] = the address a kprobe_multi link takes for function
 * names[i] of module mods[i]: ftrace's own where the kernel lists it,
 * else kallsyms'; 0 if neither lists it. */
void fbt_func_addrs(size_t n, const char *const *mods,
		    const char *const *names, uint64_t *addrs);

#define FBT_ARGS_MAX 6		/* the argument registers */

/* Whether this kernel attaches fentry and fexit programs as fbt uses
 * them, and whether p can be one: a vmlinux function with BTF (its BTF
 * id, or -1), whose arguments number fbt_fentry_nargs. */
bool fbt_fentry_usable(void);
bool fbt_fentry_ok(const struct probe *p);
int fbt_btf_id(const struct probe *p);
int fbt_fentry_nargs(const struct probe *p);

#endif /* DSCOPE_FBT_H */
