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

/* Add the probes pd may name, if its provider field is pidNNN. */
void pid_provide(struct catalog *cat, const struct probe_desc *pd);

/* For the usdt provider too: the ELF files of process pid (the -c
 * command's before it runs), the executable first; an array in the
 * catalog's arena, its length in *n. */
struct pid_module {
	const struct elf_file *f;
	bool is_exe;
};
struct pid_module *pid_modules(struct catalog *cat, long pid, int *n);

/* Does description field mod name module m?  "a.out" names the
 * executable, as in DTrace; an empty field names every module. */
bool pid_module_named(const struct pid_module *m, const char *mod);

#endif /* DSCOPE_PID_H */
