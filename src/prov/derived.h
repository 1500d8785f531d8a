/*
 * derived.h -- stable probes lowered onto the kernel event that shows
 * them: sched:::enqueue ..., proc:::fault ..., vminfo, sysinfo (derived.c).
 */
#ifndef DSCOPE_DERIVED_H
#define DSCOPE_DERIVED_H

#include <stdio.h>

#include "prov/catalog.h"

/* Makes the probes, each served by the first way this kernel offers, the
 * first time a description may name one. */
const char *derived_provide(struct catalog *cat, const struct probe_desc *pd);
int derived_load_args(struct catalog *cat, struct probe *p);

/* NULL if p is not one of these or this kernel serves it; otherwise the
 * sentence saying what the kernel lacks. */
const char *derived_missing(const struct probe *p);

/* A description naming vminfo matched nothing: which of DTrace's vminfo
 * probes no kernel here offers, and why, into buf. */
void derived_why_none(const struct probe_desc *pd, char *buf, size_t n);

/* dscope -vV: what serves each probe on this kernel. */
void derived_print(FILE *out);

#endif /* DSCOPE_DERIVED_H */
