/*
 * cg_clause.c -- a clause: its predicate, its statements and actions,
 * and its record, built at static offsets in the scratch area and written
 * out at the clause's end (cg_emit_clause).  The per-firing work around
 * clauses -- the scratch lookup, the firing's nesting level, zeroing the
 * slots -- is here too, as each clause asks for it.
 */
#include <string.h>

#include "cg/cg_impl.h"
#include "kern/ktypes.h"
#include "front/sema.h"
#include "prov/catalog.h"
#include "prov/net.h"
#include "prov/fbt.h"
#include "kern/kcaps.h"
#include "spec/options.h"
#include "spec/record.h"

static void record_room(struct cg *g, const struct node *n, uint32_t size)
{
	if (g->rec + size > REC_MAX)
		diag_fail(g->d, n ? n->line : 0, n ? n->col : 0, "D_RECORD_SIZE",
			  "actions of this clause record more than %d bytes",
			  REC_MAX);
}

/* An action inside an if says it ran: *(u64 *)(r9 + ran_off) = 1.  The
 * other path clears the word (if_stmt). */
struct spec_action *cg_new_action(struct cg *g, enum act_kind kind)
{
	struct spec_epid *ep = g->ep;
	struct spec_action *act = ARENA_PUSH(g->a, ep->acts, ep->nacts,
					     g->acts_cap);

	act->kind = kind;
	if (g->branch_depth > 0) {
		record_room(g, NULL, 8);
		act->ran_off = g->rec;
		emit_store_imm(&g->e, 8, R9, (int16_t)g->rec, 1);
		g->rec += 8;
	}
	return act;
}

/* The size bytes at the address in addr_slot, copied into the record at
 * its next free offset (which is returned); a bad address is a fault. */
uint32_t cg_record_bytes(struct cg *g, const struct node *n,
			     int16_t addr_slot, uint32_t size)
{
	uint32_t off = g->rec;

	if (off + size > REC_MAX)
		diag_fail(g->d, n->line, n->col, "D_RECORD_SIZE",
			  "actions of this clause record more than %d bytes",
			  REC_MAX);
	cg_scratch_ptr(g, R1, off);
	emit_mov_imm(&g->e, R2, (int32_t)size);
	cg_load_slot(g, R3, addr_slot);
	cg_call_or_fault(g, BPF_FUNC_probe_read_kernel, addr_slot);
	g->rec += cg_round8(size);
	return off;
}

/* Put v in the record at the next free offset; returns its field.  A
 * struct, union or floating-point value is its address in the program
 * (cg_var.c); the record holds its bytes, as DTrace's does for a value
 * passed by reference, for trace() and printf("%f") to print. */
/* A NULL string recorded (traced, printed, passed to system()) is an
 * invalid address, 0, as DTrace's dt_cg_store_val checks it:
 *	if (*(u16 *)(r9 + off) == STR_NULL_MARK << 8) fault(BADADDR, 0) */
static void check_str_not_null(struct cg *g, struct val v)
{
	int ok = emit_new_label(&g->e);

	emit_load(&g->e, 2, R0, R9, (int16_t)v.off);
	emit_jmp_imm(&g->e, BPF_JNE, R0, STR_NULL_MARK << 8, ok);
	cg_fault(g, FLT_BADADDR, -1);
	emit_label(&g->e, ok);
}

struct spec_field cg_record_val(struct cg *g, const struct node *n,
				    struct val v)
{
	struct spec_field f = { .off = g->rec, .type = n->type };
	uint32_t size = v.str ? v.size : 8;

	if (!v.str && n->type.kind == T_STRUCT) {
		f.off = cg_record_bytes(g, n, v.slot, n->type.size);
		return f;
	}
	record_room(g, n, size);
	if (v.str) {
		bool str = cg_is_str(&n->type);

		if (str)
			check_str_not_null(g, v);
		cg_copy_words(g, str, R9, g->rec, size, R9, v.off, v.size);
		f.type.size = v.size;
	} else {
		cg_load_slot(g, R0, v.slot);
		cg_normalize(g, R0, &n->type);
		emit_store(&g->e, 8, R9, (int16_t)g->rec, R0);
	}
	g->rec += size;
	return f;
}

void cg_record_args(struct cg *g, struct spec_action *act,
			struct node_list *args, int first)
{
	act->nfields = args->n - first;
	act->fields = arena_alloc(g->a, sizeof(*act->fields) *
					       (size_t)(act->nfields + 1));
	for (int i = first; i < args->n; i++) {
		struct val v = cg_expr(g, args->v[i]);

		act->fields[i - first] = cg_record_val(g, args->v[i], v);
	}
}

void cg_agg_list(struct cg *g, struct spec_action *act,
		     struct node_list *args, int first, int last)
{
	act->naggs = last - first;
	act->aggs = arena_alloc(g->a, sizeof(int) * (size_t)(act->naggs + 1));
	for (int i = first; i < last; i++)
		act->aggs[i - first] = args->v[i]->sym;
}

static void action(struct cg *g, struct node *n)
{
	struct spec_action *act;

	switch (n->fn) {
	case DF_PRINTF:
	case DF_SYSTEM:
	case DF_FREOPEN:
		act = cg_new_action(g, n->fn == DF_PRINTF ? ACT_PRINTF
				       : n->fn == DF_SYSTEM ? ACT_SYSTEM
							    : ACT_FREOPEN);
		act->fmt = n->cg;
		if (fmt_names_uaddr(act->fmt))	/* %A: the target's maps */
			g->spec->user_stacks = true;
		cg_record_args(g, act, &n->args, 1);
		break;
	case DF_TRACE:
		act = cg_new_action(g, ACT_TRACE);
		cg_record_args(g, act, &n->args, 0);
		break;
	case DF_EXIT:
		act = cg_new_action(g, ACT_EXIT);
		cg_record_args(g, act, &n->args, 0);
		/* stop every probe: the prologue checks the state; the
		 * status is kept there too, should the record be dropped */
		emit_ld_map_value(&g->e, R1, MAP_GLOBALS, 0);
		emit_load(&g->e, 8, R0, R9, (int16_t)act->fields[0].off);
		emit_store(&g->e, 8, R1, offsetof(struct globals_hdr, exit_status),
			   R0);
		emit_mov_imm(&g->e, R0, 1);
		emit_store(&g->e, 8, R1, offsetof(struct globals_hdr, state), R0);
		/* and wake the consumer now: the principal buffers wake it
		 * only a quarter full (consume.c)
		 *	bpf_ringbuf_output(&wake, &zero, 8, BPF_RB_FORCE_WAKEUP) */
		cg_ld_map(g, R1, MAP_WAKE);
		cg_fp_ptr(g, R2, SLOT_ZERO);
		emit_mov_imm(&g->e, R3, 8);
		emit_mov_imm(&g->e, R4, BPF_RB_FORCE_WAKEUP);
		emit_call(&g->e, BPF_FUNC_ringbuf_output);
		g->may_exit = true;
		break;
	default:
		if (!cg_agg_action(g, n) && !cg_speculation_action(g, n) &&
		    !cg_data_action(g, n))
			cg_subr_call(g, n);
	}
}

/* ---- statements and clauses ---- */

static void stmt(struct cg *g, struct node *n);

static void stmts(struct cg *g, struct node_list *l)
{
	for (int i = 0; i < l->n; i++)
		stmt(g, l->v[i]);
}

/* The actions from..to-1 did not run on this path: clear their words. */
static void not_ran(struct cg *g, int from, int to)
{
	for (int i = from; i < to; i++)
		if (g->ep->acts[i].ran_off)
			emit_store_imm(&g->e, 8, R9,
				       (int16_t)g->ep->acts[i].ran_off, 0);
}

/*
 * if (c) then-body else else-body.  Both bodies' actions have room in the
 * clause's one record; each path clears the ran words of the other's:
 *
 *	if (!c) goto other
 *	then-body			(its actions set their words)
 *	goto then_done
 * other:
 *	clear the then-body's words
 *	else-body
 *	goto done
 * then_done:
 *	clear the else-body's words
 * done:
 */
static void if_stmt(struct cg *g, struct node *n)
{
	int other = emit_new_label(&g->e), done = emit_new_label(&g->e);
	int then_done = emit_new_label(&g->e);
	int16_t sp = g->sp;
	struct val c = cg_expr(g, n->a);
	int first = g->ep->nacts;

	cg_load_slot(g, R0, c.slot);
	g->sp = sp;
	emit_jmp_imm(&g->e, BPF_JEQ, R0, 0, other);
	g->branch_depth++;
	stmts(g, &n->body);
	int mid = g->ep->nacts;

	emit_ja(&g->e, then_done);
	emit_label(&g->e, other);
	not_ran(g, first, mid);
	stmts(g, &n->else_body);
	emit_ja(&g->e, done);
	emit_label(&g->e, then_done);
	not_ran(g, mid, g->ep->nacts);
	emit_label(&g->e, done);
	g->branch_depth--;
}

static void stmt(struct cg *g, struct node *n)
{
	int16_t sp = g->sp;
	uint32_t tmp = g->tmp;

	switch (n->kind) {
	case S_EXPR:
		if (n->a->kind == N_CALL)
			action(g, n->a);
		else
			cg_expr(g, n->a);
		break;
	case S_AGG:
		cg_agg_stmt(g, n);
		break;
	case S_IF:
		if_stmt(g, n);
		break;
	case S_BLOCK:
		stmts(g, &n->body);
		break;
	default:
		break;
	}
	g->sp = sp;
	g->tmp = tmp;
}

/*
 * bufpolicy=fill (globals->fill_limit set): a CPU's principal buffer takes
 * records until the next would pass the limit, in perf sample bytes
 * (rt/bufpolicy.h); from then on records are refused, in BPF, and counted
 * in fill_refused, which tells the consumer this CPU is full.  Refusing
 * here keeps a full CPU from flooding its perf ring until tracing stops.
 *
 *	if (!(r1 = globals->fill_limit)) goto write
 *	if (!(r0 = &drops[this cpu])) goto write
 *	r2 = r0->fill_bytes + cost
 *	if (r2 > globals->fill_limit) { r0->fill_refused++; goto skip }
 *	r0->fill_bytes = r2
 * write:
 */
static void fill_room(struct cg *g, int skip)
{
	int write = emit_new_label(&g->e), refuse = emit_new_label(&g->e);
	uint32_t limit = offsetof(struct globals_hdr, fill_limit);
	int16_t bytes = offsetof(struct drop_counts, fill_bytes);
	int16_t refused = offsetof(struct drop_counts, fill_refused);

	emit_ld_map_value(&g->e, R1, MAP_GLOBALS, limit);
	emit_load(&g->e, 8, R1, R1, 0);
	emit_jmp_imm(&g->e, BPF_JEQ, R1, 0, write);
	cg_ld_map(g, R1, MAP_DROPS);
	cg_fp_ptr(g, R2, SLOT_ZERO);
	emit_call(&g->e, BPF_FUNC_map_lookup_elem);
	emit_jmp_imm(&g->e, BPF_JEQ, R0, 0, write);
	emit_ld_map_value(&g->e, R1, MAP_GLOBALS, limit);
	emit_load(&g->e, 8, R1, R1, 0);
	emit_load(&g->e, 8, R2, R0, bytes);
	emit_alu_imm(&g->e, BPF_ADD, R2, (int32_t)bufpolicy_cost(g->rec));
	emit_jmp_reg(&g->e, BPF_JGT, R2, R1, refuse);
	emit_store(&g->e, 8, R0, bytes, R2);
	emit_ja(&g->e, write);
	emit_label(&g->e, refuse);
	emit_load(&g->e, 8, R1, R0, refused);
	emit_alu_imm(&g->e, BPF_ADD, R1, 1);
	emit_store(&g->e, 8, R0, refused, R1);
	emit_ja(&g->e, skip);
	emit_label(&g->e, write);
}

/* Write the clause's record: header, then one perf event output. */
static void emit_record(struct cg *g)
{
	int ok = emit_new_label(&g->e);

	fill_room(g, ok);
	emit_mov_imm(&g->e, R0, g->epid);
	emit_store(&g->e, 4, R9, 0, R0);		/* rec->epid */
	cg_probe_id(g);
	emit_store(&g->e, 4, R9, 4, R0);		/* rec->probe_id */
	if (g->ring_map >= 0) {
		int full = emit_new_label(&g->e);

		cg_sbuf_output(g, 0, g->rec, full);
		emit_ja(&g->e, ok);
		emit_label(&g->e, full);
	} else {
		emit_mov_reg(&g->e, R1, R6);
		cg_ld_map(g, R2, MAP_BUF);
		emit_alu32_imm(&g->e, BPF_MOV, R3, -1);	/* BPF_F_CURRENT_CPU */
		emit_mov_reg(&g->e, R4, R9);
		if (g->strs_n)	/* -x record: the string slots filled */
			cg_record_size(g);
		else
			emit_mov_imm(&g->e, R5, (int32_t)g->rec);
		emit_call(&g->e, BPF_FUNC_perf_event_output);
		emit_jmp_imm(&g->e, BPF_JSGE, R0, 0, ok);
	}
	cg_count_drop(g, offsetof(struct drop_counts, buf));
	emit_label(&g->e, ok);
}

static bool records_data(const struct node_list *body)
{
	for (int i = 0; i < body->n; i++) {
		const struct node *n = body->v[i];

		if (n->kind == S_EXPR && n->a->kind == N_CALL)
			return true;
		if ((n->kind == S_IF || n->kind == S_BLOCK) &&
		    (records_data(&n->body) || records_data(&n->else_body)))
			return true;
	}
	return false;
}

/*
 * r9, this firing's scratch area: the area of the next nesting level
 * (SCRATCH_LEVELS in spec.h), taken once a firing:
 *	if (SLOT_NEST) goto have
 *	r0 = lookup(nest, &zero); if (!r0) goto out
 *	lock *r0 += 1; r1 = *r0 - 1; SLOT_NEST = r0; SLOT_LEVEL = r1
 *	if (r1 >= SCRATCH_LEVELS) { drops.nested++; goto out }
 * have:
 *	r9 = lookup(scratch, &SLOT_LEVEL); if (!r9) goto out
 * The level is taken by a lock add and a load, not a fetch-and-add,
 * which kernels before 5.12 lack: as exact, since the programs on one
 * CPU nest, and one that interrupts between the add and the load has
 * given its level back (epilogue) before this one goes on.
 * or in a sleepable program, the thread's own, made at its first firing:
 *	r9 = task_storage_get(&tscratch, current, NULL, F_CREATE)
 *	if (!r9) goto out
 */
void cg_scratch_lookup(struct cg *g)
{
	if (g->sleepable) {
		emit_call(&g->e, BPF_FUNC_get_current_task_btf);
		emit_mov_reg(&g->e, R2, R0);
		cg_ld_map(g, R1, g->spec->tscratch_map);
		emit_mov_imm(&g->e, R3, 0);
		emit_mov_imm(&g->e, R4, BPF_LOCAL_STORAGE_GET_F_CREATE);
		emit_call(&g->e, BPF_FUNC_task_storage_get);
		emit_jmp_imm(&g->e, BPF_JEQ, R0, 0, g->out);
		emit_mov_reg(&g->e, R9, R0);
		return;
	}
	int have = emit_new_label(&g->e), deep = emit_new_label(&g->e);
	int done = emit_new_label(&g->e);

	/* one level a firing, whichever clause looks first */
	emit_load(&g->e, 8, R0, R10, SLOT_NEST);
	emit_jmp_imm(&g->e, BPF_JNE, R0, 0, have);
	cg_ld_map(g, R1, MAP_NEST);
	cg_fp_ptr(g, R2, SLOT_ZERO);
	emit_call(&g->e, BPF_FUNC_map_lookup_elem);
	emit_jmp_imm(&g->e, BPF_JEQ, R0, 0, g->out);
	emit_mov_imm(&g->e, R1, 1);
	emit_atomic_add(&g->e, R0, 0, R1);
	emit_load(&g->e, 8, R1, R0, 0);
	emit_alu_imm(&g->e, BPF_SUB, R1, 1);
	emit_store(&g->e, 8, R10, SLOT_NEST, R0);
	emit_store(&g->e, 8, R10, SLOT_LEVEL, R1);
	emit_jmp_imm(&g->e, BPF_JGE, R1, SCRATCH_LEVELS, deep);
	emit_label(&g->e, have);
	cg_ld_map(g, R1, MAP_SCRATCH);
	cg_fp_ptr(g, R2, SLOT_LEVEL);
	emit_call(&g->e, BPF_FUNC_map_lookup_elem);
	emit_jmp_imm(&g->e, BPF_JEQ, R0, 0, g->out);
	emit_mov_reg(&g->e, R9, R0);
	emit_ja(&g->e, done);
	emit_label(&g->e, deep);
	cg_count_drop(g, offsetof(struct drop_counts, nested));
	emit_ja(&g->e, g->out);
	emit_label(&g->e, done);
}

/*
 * The program's exit gives back the level its firing took:
 *	out: r1 = SLOT_NEST; if (r1) atomic *r1 -= 1
 *	bare: r0 = 0; exit
 * A firing a sys_late program rejects before its first clause's lookup
 * has taken nothing, and has not even zeroed SLOT_NEST: it leaves by
 * bare (early_out).
 */
void cg_epilogue(struct cg *g)
{
	int none = emit_new_label(&g->e);

	emit_label(&g->e, g->out);
	emit_load(&g->e, 8, R1, R10, SLOT_NEST);
	emit_jmp_imm(&g->e, BPF_JEQ, R1, 0, none);
	emit_mov_imm(&g->e, R2, -1);
	emit_atomic_add(&g->e, R1, 0, R2);
	emit_label(&g->e, none);
	emit_label(&g->e, g->bare);
	emit_mov_imm(&g->e, R0, 0);
	emit_exit(&g->e);
}

/* The probes stop when exit() was called or the session ends:
 *	if (globals.state) goto out */
void cg_state_test(struct cg *g)
{
	emit_ld_map_value(&g->e, R1, MAP_GLOBALS, 0);
	emit_load(&g->e, 8, R0, R1, offsetof(struct globals_hdr, state));
	emit_jmp_imm(&g->e, BPF_JNE, R0, 0, g->out);
}

/* Where a firing leaves before its level is taken: bare in a sys_late
 * program, which zeroes SLOT_NEST only then (firing_lookup). */
int cg_early_out(const struct cg *g)
{
	return g->sys_late >= 0 ? g->bare : g->out;
}

/* The slots every firing starts with (firing_lookup's when sys_late) */
void cg_zero_slots(struct cg *g)
{
	emit_store_imm(&g->e, 8, R10, SLOT_ZERO, 0);
	emit_store_imm(&g->e, 8, R10, SLOT_TIMESTAMP, 0);
	if (g->c->record)
		emit_store_imm(&g->e, 8, R10, SLOT_RECORDED, 0);
}

/*
 * What a firing that runs a clause needs: r9, and r7, the test of the
 * state and the zeroed slots when the prologue left them for later
 * (sys_prologue: a program of one syscall tests the number, and only a
 * firing its predicate takes goes on).  A predicate that runs before
 * them reads only the pid, the tid and constants: it has no effect, and
 * ending the run does not wait for it.
 *	SLOT_NEST = 0				(sys_late)
 *	if (globals.state) goto out		(sys_late)
 *	SLOT_ZERO = 0; SLOT_TIMESTAMP = 0	(sys_late)
 *	r9 = lookup(scratch, &zero); if (!r9) goto out
 *	*(u32 *)(fp + first) = nr; r7 = lookup(sysinfo, fp + first)
 *	if (!r7) goto out
 */
static void firing_lookup(struct cg *g)
{
	if (g->sys_late >= 0) {	/* one clause: once a firing */
		emit_store_imm(&g->e, 8, R10, SLOT_NEST, 0);	/* cg_epilogue() */
		cg_state_test(g);
		cg_zero_slots(g);
	}
	cg_scratch_lookup(g);
	if (g->sys_late < 0)
		return;
	emit_store_imm(&g->e, 4, R10, SLOT_FIRST, g->sys_late);
	cg_ld_map(g, R1, MAP_SYSINFO);
	cg_fp_ptr(g, R2, SLOT_FIRST);
	emit_call(&g->e, BPF_FUNC_map_lookup_elem);
	emit_jmp_imm(&g->e, BPF_JEQ, R0, 0, g->out);
	emit_mov_reg(&g->e, R7, R0);
}

/*
 * A predicate that can run before the scratch lookup: integer constants,
 * pid and tid, and operators on them but division.  A list of what is
 * known not to touch r9, rather than a search for what does; predicate()
 * checks the instructions too.
 */
static bool scratch_free(const struct node *n)
{
	switch (n->kind) {
	case N_INT:
		return true;
	case N_IDENT:
		return !strcmp(n->str, "pid") || !strcmp(n->str, "tid");
	case N_UNARY:
		return (n->op == '!' || n->op == '-' || n->op == '~') &&
		       scratch_free(n->a);
	case N_BINARY:	/* a division may fault, and a fault is recorded */
		return n->op != ',' && n->op != '/' && n->op != '%' &&
		       scratch_free(n->a) && scratch_free(n->b);
	default:
		return false;
	}
}

/*
 *	if (!pred) goto clause_end
 * with the scratch lookup before it, or after it when the predicate needs
 * no scratch and the lookup is still to do.  In that case the paths that
 * skip the clause have no r9, and the next clause looks it up again.
 */
static void predicate(struct cg *g, const struct node *pred)
{
	bool defer = !g->have_scratch && scratch_free(pred);
	int start = g->e.n, end = g->clause_end;

	if (!defer && !g->have_scratch) {
		firing_lookup(g);
		g->have_scratch = true;
	}
	if (defer && g->sys_late >= 0)
		g->clause_end = g->bare;	/* the only clause, nothing taken */
	if (!cg_predicate_jump(g, (struct node *)pred)) {
		struct val v = cg_expr(g, (struct node *)pred);

		cg_load_slot(g, R0, v.slot);
		emit_jmp_imm(&g->e, BPF_JEQ, R0, 0, g->clause_end);
	}
	g->clause_end = end;
	for (int i = start; defer && i < g->e.n; i++)
		if (g->e.insns[i].dst_reg == R9 || g->e.insns[i].src_reg == R9 ||
		    (g->sys_late >= 0 && (g->e.insns[i].dst_reg == R7 ||
					  g->e.insns[i].src_reg == R7)))
			diag_fail(g->d, pred->line, pred->col, "D_INTERNAL",
				  "predicate read the scratch area before its lookup");
	if (defer)
		firing_lookup(g);
}

void cg_emit_clause(struct cg *g, const struct cg_clause *cc)
{
	struct clause *c = cc->clause;
	struct spec *sp = g->spec;

	g->cl = cc;
	if (!cg_error_epid(g, cc)) {
		g->ep = ARENA_PUSH(g->a, sp->epids, sp->nepids, g->c->epids_cap);
		g->ep->clause = c->id;
		g->epid = sp->nepids - 1;
	}
	g->fault_label = 0;
	g->acts_cap = 0;
	g->rec = REC_HDR;
	g->sp = SLOT_FIRST + 8;
	g->tmp = g->tmp_base;
	g->clause_end = emit_new_label(&g->e);
	g->action = 0;
	g->alloca_top = 0;

	/* After exit(), DTrace runs no further clause of the firing (END's
	 * excepted: they run while the session ends; and ERROR's, which
	 * report a fault that happened before):
	 *	if (globals.state) goto out */
	if (g->may_exit && g->att != ATTACH_END && g->att != ATTACH_ERROR) {
		emit_ld_map_value(&g->e, R1, MAP_GLOBALS, 0);
		emit_load(&g->e, 8, R0, R1, offsetof(struct globals_hdr, state));
		emit_jmp_imm(&g->e, BPF_JNE, R0, 0, g->out);
	}

	/* strtok(NULL, d) has nothing to go on from when the firing starts:
	 * state.pos = -1, before any clause can be skipped */
	if (cc == g->strtok_first) {
		if (!g->have_scratch)
			firing_lookup(g);
		g->have_scratch = true;
		emit_store_imm(&g->e, 8, R9, (int16_t)g->strtok_off, -1);
	}
	/* A syscall program of one clause: the prologue's test of the mask
	 * was this clause's. */
	if (cc->mask_bit >= 0 && !(cg_is_sys(g) && g->nclauses == 1)) {
		/* if (!(sysinfo->mask >> bit & 1)) skip this clause */
		emit_load(&g->e, 8, R1, R7,
			  cg_is_uprobe(g) ? offsetof(struct uprobe_entry, mask)
			  : g->att == ATTACH_SYS_ENTER
				  ? offsetof(struct sysinfo_entry, entry_mask)
				  : offsetof(struct sysinfo_entry, return_mask));
		if (cc->mask_bit > 0)
			emit_alu_imm(&g->e, BPF_RSH, R1, cc->mask_bit);
		emit_alu_imm(&g->e, BPF_AND, R1, 1);
		emit_jmp_imm(&g->e, BPF_JEQ, R1, 0, g->clause_end);
	}
	/* r9 at the clause's end: had before it, or looked up before its
	 * first jump there */
	bool after = g->have_scratch || (cc->mask_bit < 0 && !c->pred);
	uint32_t tmp_base = g->tmp_base;

	if (c->pred) {
		predicate(g, c->pred);
		g->sp = SLOT_FIRST + 8;
		g->tmp = g->tmp_base;
	} else if (!g->have_scratch) {
		firing_lookup(g);
	}
	g->have_scratch = true;
	if (g->c->record)	/* room for the stacks it records */
		cg_record_clause_begin(g);
	/* recording, an empty clause's firing is kept, not printed; BEGIN,
	 * END and ERROR are not recorded (cg_record.c) and print as live */
	if (c->body.n == 0 && (!g->c->record || g->att == ATTACH_BEGIN ||
			       g->att == ATTACH_END || g->att == ATTACH_ERROR))
		cg_new_action(g, ACT_DEFAULT);
	cg_speculation_clause_begin(g, &c->body);
	for (int i = 0; i < c->body.n; i++) {
		g->action = i + 1;
		stmt(g, c->body.v[i]);
	}
	cg_speculation_clause_end(g);
	if (g->c->record)
		cg_record_firing(g);
	if (g->ep->nacts > 0 || records_data(&c->body)) {
		emit_record(g);
		g->ep->end = g->att == ATTACH_END;
	}
	g->ep->size = g->rec;
	if (g->fault_label)
		cg_error_run(g);
	emit_label(&g->e, g->clause_end);
	g->have_scratch = after;
	g->tmp_base = tmp_base;
	cg_error_epid_done(g, cc);
}

/*
 * proc:::start, lwp-start and exec-failure ride raw_syscalls' sys_exit:
 * a fork child's first instruction in user space is the return from the
 * clone that made it, in its own context, with 0 -- the one place Linux
 * shows a new process or thread starting.
 *
 *	nr = regs->orig_ax
 *	EXEC_*:       if (nr != execve && nr != execveat) goto out
 *	EXEC_FAILED:  if ((s64)ctx->args[1] >= 0) goto out
 *	START_*:      if (nr not in clone fork vfork clone3) goto out
 *	              if (ctx->args[1] != 0) goto out
 *	              id = pid_tgid; if ((id >> 32 == (u32)id) != PROCESS) goto out
 */
