/*
 * cg.h -- the code generator: typed clauses in, BPF programs out.
 *
 * cg_program() emits one BPF program for one attachment point (BEGIN, the
 * sys_enter raw tracepoint, a profile timer, ...), holding every clause that
 * matches it in script order (DESIGN.md 3.2).  It appends the program, its
 * record layouts (epids) and whatever maps its aggregations need to the
 * spec.  Sema must have run on every clause first.
 */
#ifndef DSCOPE_CG_H
#define DSCOPE_CG_H

#include "base/arena.h"
#include "front/ast.h"
#include "base/diag.h"
#include "spec/spec.h"

struct probe;

/* One clause as it applies to one program. */
struct cg_clause {
	struct clause *clause;
	const struct probe *probe;	/* the probe, when it is the only one */
	int mask_bit;			/* SYS programs: bit in sysinfo masks, -1 = all */
};

struct cg_ctx {
	struct arena *a;
	struct diag *d;
	struct spec *spec;
	int epids_cap, maps_cap, progs_cap, nests_cap;	/* capacities of spec arrays */
	uint32_t aggsize_entries;	/* max entries of each aggregation map */
	uint64_t dynvar_bytes;		/* option dynvarsize: per dynamic variable map */
	uint32_t scratch_bytes;		/* option scratchsize: a clause's alloca() */
	bool unwind;			/* ustack() walks .eh_frame tables (ustackrows) */
	int cpu;			/* option cpu: the one CPU probes fire on, or -1 */
	uint64_t bufsize;		/* option bufsize: principal buffer per CPU */
	bool record;			/* -x record: each clause records its
					 * firing (cg_record.c) */
	bool zone_filter;		/* option zone: probes fire in the cgroups
					 * of SPEC_ZONE_MAP only (cg_zone.c) */
	/* dtrace:::ERROR's clauses, run in each program where it faults
	 * (cg_error.c) */
	const struct probe *err_probe;
	const struct cg_clause *err_clauses;
	int nerr;
	int err_epid;			/* the first one's epid */
	struct spec_epid *err_eps;	/* their layouts, until reserved */
};

/* Emit the program for attachment `att`; returns its index in spec->progs. */
int cg_program(struct cg_ctx *c, enum spec_attach att, uint64_t period_ns,
	       const struct probe *probe, const struct cg_clause *clauses,
	       int nclauses);

/*
 * dtrace:::ERROR has no program: its clauses (probe is ERROR) are
 * compiled into every program that can fault, before any is emitted;
 * first_epid is where cg_error_reserve(), called when the spec has that
 * many epids, puts theirs.
 */
void cg_error_setup(struct cg_ctx *c, const struct probe *probe,
		    const struct cg_clause *clauses, int n, int first_epid);
void cg_error_reserve(struct cg_ctx *c);

/* Add the fixed maps (MAP_GLOBALS ... MAP_SPEC) to an empty spec. */
void cg_fixed_maps(struct cg_ctx *c, uint32_t nsyscalls);
/* Add the pid probes' table (spec.uprobe_map, spec.nuprobes entries). */
void cg_uprobe_map(struct cg_ctx *c);
/* Add -x replay's map of the firing replayed (spec.replay_map). */
void cg_replay_map(struct cg_ctx *c);

#endif /* DSCOPE_CG_H */
