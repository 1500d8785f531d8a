/*
 * pid.h -- the pid provider: pidNNN:module:function:entry|return, on
 * uprobes (DESIGN.md 3.5, 3.8).
 *
 * Probes are made on demand when a description names a pid provider
 * ("pid123", or "pid$target" after macro expansion): every function of
 * every module of that process whose name matches the module field gets
 * an entry and a return probe.  A module is named by its file's last
 * path component ("libc.so.6"); "a.out" also names the executable, as in
 * DTrace.
 */
#ifndef DSCOPE_PID_H
#define DSCOPE_PID_H

#include "prov/catalog.h"

struct elf_file;

/* Add the probes pd may name, if its provider field is pidNNN; returns
 * the module field as those probes spell it (pid_module_resolve). */
const char *pid_provide(struct catalog *cat, const struct probe_desc *pd);

/* For the usdt provider too: the ELF files of process pid (the -c
 * command's before it runs), the executable first; an array in the
 * catalog's arena, its length in *n. */
struct pid_module {
	const struct elf_file *f;
	bool is_exe;
};
struct pid_module *pid_modules(struct catalog *cat, long pid, int *n);

/* The name of the module of mods[n] that description field mod names
 * ("libc" for libc.so.6, as DTrace's libproc); mod itself for a glob, an
 * empty field, or a name no module answers to. */
const char *pid_module_resolve(const struct pid_module *mods, int n,
			       const char *mod);

/* Does description field mod name module m?  "a.out" names the
 * executable, as in DTrace; an empty field names every module. */
bool pid_module_named(const struct pid_module *m, const char *mod);

#endif /* DSCOPE_PID_H */
