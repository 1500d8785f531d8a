/*
 * plockstat.h -- DTrace's plockstat provider: a process's pthread mutexes
 * and rwlocks, lowered onto pid probes of libc and the futex system call
 * (plockstat.c).
 */
#ifndef DSCOPE_PLOCKSTAT_H
#define DSCOPE_PLOCKSTAT_H

#include "prov/catalog.h"

/* Adds plockstatNNN's probes when pd's provider field names one (after
 * $target expansion), with the pid probes they are made of. */
const char *plockstat_provide(struct catalog *cat, const struct probe_desc *pd);
int plockstat_load_args(struct catalog *cat, struct probe *p);

#endif /* DSCOPE_PLOCKSTAT_H */
