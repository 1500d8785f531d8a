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

/* dscope -vV: what serves each probe on this kernel. */
void derived_print(FILE *out);

#endif /* DSCOPE_DERIVED_H */
