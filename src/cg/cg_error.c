/*
 * cg_error.c -- dtrace:::ERROR, run where the fault happens.
 *
 * DTrace fires the ERROR probe from inside the firing that faulted
 * (illumos dtrace_probe: on CPU_DTRACE_FAULT it calls dtrace_probe_error,
 * which is dtrace_probe(dtrace_probeid_error, ...) in the same context;
 * dtrace-utils calls the ERROR probe's program as a BPF function from
 * the fault site).  So the ERROR clauses see the faulting thread: its
 * pid, tid, execname, curthread, cpu, stack; and an exit() there stops
 * every CPU's probes at once, the faulting firing's later clauses too.
 * dscope has no program for ERROR: its clauses are compiled into each
 * program that can fault, once for each clause that can, after that
 * clause's end, where its faults jump (cg_fault):
 *
 *	clause k:	...  fault: write the error record; goto fault_k
 *			...  write the clause's record
 *			goto end_k
 *	fault_k:	the error record's words -> ERR_ARGS_OFF
 *			ERROR clause 1 ... ERROR clause n
 *	end_k:		clause k + 1 ...
 *
 * then the firing goes on with the next clause, as dtrace_probe goes on
 * with the next ECB.  The ERROR clauses are emitted as ATTACH_ERROR's:
 * probeprov and the rest name dtrace:::ERROR, and arg0..arg5 are
 * DTrace's: 0, the faulting clause's epid, its action (0: the
 * predicate), -1 (no DIF offset here), the fault (DTRACEFLT_*) and its
 * address or value, read from the copy of the error record that
 * fault_k makes -- an ERROR clause's own fault writes a new record over
 * the first, and the next ERROR clause must still see the first.  Their
 * stack slots and scratch temps are the faulting clause's, dead once it
 * faulted; r6 (the context), r7 (the probe's entry) and r9 (the scratch
 * area) are left as they were, for the clauses after.
 *
 * A fault in an ERROR clause ends that ERROR clause only: it writes its
 * error record (the consumer counts it, "1 error in ERROR probe
 * enabling") and does not run ERROR again, as dtrace_probe does not for
 * the error probe (dts_dblerrors).
 *
 * Each copy of an ERROR clause writes records of the one epid that
 * clause has, reserved where its program's were when ERROR had one
 * (after BEGIN's and END's), so enabled probe IDs do not move; the
 * first copy compiled gives the layout, the others must match it.
 */
#include <string.h>

#include "cg/cg_impl.h"
#include "prov/catalog.h"

/* the copy of the faulting clause's error record, in the error record's
 * 64 bytes (spec.h: ERR_REC_OFF) */
#define ERR_ARGS_OFF (ERR_REC_OFF + (int)sizeof(struct err_record))
_Static_assert(ERR_REC_OFF + 2 * sizeof(struct err_record) <= SCRATCH_SIZE &&
	       ERR_REC_OFF + 2 * sizeof(struct err_record) <= ERR_REC_OFF + 64,
	       "the error record and its copy fit in the error record's area");

void cg_error_setup(struct cg_ctx *c, const struct probe *probe,
		    const struct cg_clause *clauses, int n, int first_epid)
{
	c->err_probe = probe;
	c->err_clauses = clauses;
	c->nerr = n;
	c->err_epid = first_epid;
	c->err_eps = arena_alloc(c->a, sizeof(*c->err_eps) * (size_t)(n + 1));
	memset(c->err_eps, 0, sizeof(*c->err_eps) * (size_t)(n + 1));
	for (int i = 0; i < n; i++)
		c->err_eps[i].clause = clauses[i].clause->id;
}

void cg_error_reserve(struct cg_ctx *c)
{
	struct spec *sp = c->spec;

	if (c->nerr && sp->nepids != c->err_epid)
		diag_fail(c->d, 0, 0, "D_INTERNAL", "ERROR's epids are %d, not %d",
			  sp->nepids, c->err_epid);
	for (int i = 0; i < c->nerr; i++)
		*ARENA_PUSH(c->a, sp->epids, sp->nepids, c->epids_cap) =
			c->err_eps[i];
}

/* Where the layout of ERROR clause i is kept: its epid once reserved,
 * the context's until then. */
static struct spec_epid *kept_layout(struct cg *g, int i)
{
	int epid = g->c->err_epid + i;

	return epid < g->spec->nepids ? &g->spec->epids[epid] : &g->c->err_eps[i];
}

bool cg_error_epid(struct cg *g, const struct cg_clause *cc)
{
	if (g->att != ATTACH_ERROR)
		return false;
	g->epid = g->c->err_epid + (int)(cc - g->c->err_clauses);
	g->ep = arena_alloc(g->a, sizeof(*g->ep));
	memset(g->ep, 0, sizeof(*g->ep));
	g->ep->clause = cc->clause->id;
	return true;
}

void cg_error_epid_done(struct cg *g, const struct cg_clause *cc)
{
	struct spec_epid *kept;

	if (g->att != ATTACH_ERROR)
		return;
	kept = kept_layout(g, (int)(cc - g->c->err_clauses));
	if (!kept->size)
		*kept = *g->ep;
	else if (kept->size != g->ep->size || kept->nacts != g->ep->nacts)
		diag_fail(g->d, cc->clause->line, cc->clause->col, "D_INTERNAL",
			  "copies of an ERROR clause differ in their records");
}

int cg_fault_target(struct cg *g)
{
	if (g->att == ATTACH_ERROR || !g->c->nerr)
		return g->clause_end;
	if (!g->fault_label)
		g->fault_label = emit_new_label(&g->e);
	return g->fault_label;
}

/* Does insn write register reg (an ALU result or a load)? */
static bool writes(const struct bpf_insn *insn, int reg)
{
	int cls = BPF_CLASS(insn->code);

	return insn->dst_reg == reg &&
	       (cls == BPF_ALU || cls == BPF_ALU64 || cls == BPF_LD ||
		cls == BPF_LDX);
}

void cg_error_run(struct cg *g)
{
	const struct cg_ctx *c = g->c;
	struct cg host = *g;
	int start;

	emit_ja(&g->e, g->clause_end);
	emit_label(&g->e, g->fault_label);
	for (int i = 0; i < (int)sizeof(struct err_record); i += 8) {
		emit_load(&g->e, 8, R0, R9, (int16_t)(ERR_REC_OFF + i));
		emit_store(&g->e, 8, R9, (int16_t)(ERR_ARGS_OFF + i), R0);
	}
	g->att = ATTACH_ERROR;
	g->probe = c->err_probe;
	g->sys_late = -1;
	g->self_task = false;
	g->may_exit = false;
	g->branch_depth = 0;
	cg_strtok_reserve(g, c->err_clauses, c->nerr);
	start = g->e.n;
	for (int i = 0; i < c->nerr; i++)
		cg_emit_clause(g, &c->err_clauses[i]);
	for (int i = start; i < g->e.n; i++)
		if (writes(&g->e.insns[i], R6) || writes(&g->e.insns[i], R7) ||
		    writes(&g->e.insns[i], R9))
			diag_fail(g->d, 0, 0, "D_INTERNAL", "an ERROR clause changed "
				  "a register the faulting program keeps");

	/* what is the faulting clause's comes back; what the program
	 * gathered (maps, callbacks, lanes, the code) stays */
	g->att = host.att;
	g->probe = host.probe;
	g->cl = host.cl;
	g->ep = host.ep;
	g->epid = host.epid;
	g->sp = host.sp;
	g->tmp = host.tmp;
	g->rec = host.rec;
	g->clause_end = host.clause_end;
	g->acts_cap = host.acts_cap;
	g->tmp_base = host.tmp_base;
	g->action = host.action;
	g->alloca_top = host.alloca_top;
	g->have_scratch = host.have_scratch;
	g->sys_late = host.sys_late;
	g->self_task = host.self_task;
	g->may_exit = host.may_exit || g->may_exit;	/* its exit() stops the rest */
	g->branch_depth = host.branch_depth;
	g->strtok_off = host.strtok_off;
	g->strtok_first = host.strtok_first;
	g->strs_n = host.strs_n;
	g->strs_off = host.strs_off;
	g->fault_label = host.fault_label;
}

/*
 * arg0..arg9 of an ERROR clause, as dtrace_probe_error passes them:
 *	arg1 = epid + 1, arg2 = action, arg3 = -1, arg4 = fault,
 *	arg5 = address; the rest 0
 */
void cg_error_arg(struct cg *g, int16_t slot, int n)
{
	int16_t rec = (int16_t)ERR_ARGS_OFF;

	switch (n) {
	case 1:
		emit_load(&g->e, 4, R0, R9,
			  rec + offsetof(struct err_record, clause_epid));
		emit_alu_imm(&g->e, BPF_ADD, R0, 1);
		break;
	case 2:
		emit_load(&g->e, 4, R0, R9, rec + offsetof(struct err_record, action));
		break;
	case 3:
		emit_mov_imm(&g->e, R0, -1);
		break;
	case 4:
		emit_load(&g->e, 8, R0, R9, rec + offsetof(struct err_record, fault));
		break;
	case 5:
		emit_load(&g->e, 8, R0, R9, rec + offsetof(struct err_record, addr));
		break;
	default:
		emit_mov_imm(&g->e, R0, 0);
		break;
	}
	cg_store_slot(g, slot, R0);
}
