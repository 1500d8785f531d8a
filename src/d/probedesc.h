/*
 * probedesc.h -- a probe description, D's name for a set of probes: what
 * the parser reads, sema and the catalog match, and providers make
 * probes for.
 */
#ifndef DSCOPE_PROBEDESC_H
#define DSCOPE_PROBEDESC_H

/* One probe description as written: "syscall::read*:entry", "BEGIN",
 * "tick-1s", "pid$target:libc.so.6:malloc:entry" ($target already
 * expanded).  Split into four fields (missing leading fields are empty,
 * as DTrace: "read:entry" is ":" ":" "read" ":" "entry"). */
struct probe_desc {
	const char *text;	/* as written (after macro expansion) */
	const char *prov, *mod, *func, *name;	/* may be "" meaning "any" */
	int line, col;
};

#endif /* DSCOPE_PROBEDESC_H */
