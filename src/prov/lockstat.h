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

/* A description naming one of DTrace's lockstat probes Linux cannot
 * offer: the sentence saying why, into buf; nothing otherwise. */
void lockstat_why_none(const struct probe_desc *pd, char *buf, size_t n);

#endif /* DSCOPE_LOCKSTAT_H */
