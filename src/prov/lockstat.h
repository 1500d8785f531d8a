/*
 * lockstat.h -- DTrace's lockstat provider: kernel lock contention, lowered
 * onto the lock:contention_begin/end tracepoints (lockstat.c).
 */
#ifndef DSCOPE_LOCKSTAT_H
#define DSCOPE_LOCKSTAT_H

#include "prov/catalog.h"

void lockstat_populate(struct catalog *cat);
int lockstat_load_args(struct catalog *cat, struct probe *p);

/* NULL if this kernel has the tracepoints p needs (or nothing is known:
 * no BTF); otherwise the sentence naming the one it lacks. */
const char *lockstat_missing(const struct probe *p);

#endif /* DSCOPE_LOCKSTAT_H */
