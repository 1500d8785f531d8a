/*
 * sdt.h -- kernel tracepoints as probes: the sdt provider (every tracepoint,
 * sdt.c) and DTrace's stable sched, proc and io providers built on a few of
 * them (stable.c).
 */
#ifndef DSCOPE_SDT_H
#define DSCOPE_SDT_H

#include "catalog.h"

/* Adds sdt:GROUP::EVENT for each tracefs event that is a tracepoint a BPF
 * raw tracepoint program can attach to (BTF has its btf_trace_EVENT). */
void sdt_populate(struct catalog *cat);

/* Why a description naming sdt matched nothing, when tracefs says why. */
void sdt_why_none(const struct probe_desc *pd, char *buf, size_t n);

/* args[] of an sdt probe: TP_PROTO's arguments, from BTF. */
int sdt_load_args(struct catalog *cat, struct probe *p);

/* The number of TP_PROTO arguments of tracepoint `event`; -1 if BTF does
 * not know it. */
int sdt_tp_nargs(const char *event);

/* A BTF type as C spells it: "struct task_struct *", "unsigned int",
 * "u64"; qualifiers dropped, a function pointer is "void *". */
struct btf;
void sdt_type_text(const struct btf *btf, uint32_t id, char *buf, size_t n);

void stable_populate(struct catalog *cat);
int stable_load_args(struct catalog *cat, struct probe *p);

/* NULL if this kernel has p's tracepoint (or nothing is known: no BTF);
 * otherwise the sentence saying which it lacks.  p is a sched, proc,
 * io, tcp, udp or ip probe. */
const char *stable_missing(const struct probe *p);

#endif /* DSCOPE_SDT_H */
