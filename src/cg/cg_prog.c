/*
 * cg_prog.c -- one BPF program per probe point (DESIGN.md §3.2): the
 * guards that pick this probe's firings out of a shared attachment
 * (a syscall among sys_enter's, a task state among sched_switch's), the
 * prologue, the clauses in script order, and the fixed maps every program
 * shares (cg_program, cg_fixed_maps).
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

/*
 * proc:::exec, on a kernel without sched_prepare_exec (stable.c), is
 * every attempt to exec, at sys_enter of execve or execveat (its args:
 * regs, id) -- before the attempt succeeds or fails, as DTrace's fires:
 *
 *	if (ctx->args[1] != execve && ctx->args[1] != execveat) goto out
 */
static void guard_sys_enter_exec(struct cg *g)
{
	int hit = emit_new_label(&g->e);

	emit_load(&g->e, 8, R0, R6, 8);
	emit_jmp_imm(&g->e, BPF_JEQ, R0, 59, hit);		/* x86-64 */
	emit_jmp_imm(&g->e, BPF_JNE, R0, 322, g->out);
	emit_label(&g->e, hit);
}

static void guard_sys_exit(struct cg *g, int kind)
{
	static const int32_t exec_nrs[] = { 59, 322 };		/* x86-64 */
	static const int32_t fork_nrs[] = { 56, 57, 58, 435 };
	bool exec = kind == GUARD_EXEC_FAILED || kind == GUARD_EXEC_EXIT;
	const int32_t *nrs = exec ? exec_nrs : fork_nrs;
	int n = exec ? 2 : 4, hit = emit_new_label(&g->e);

	cg_sys_regs_word(g, SLOT_FIRST, PT_REGS_ORIG_AX);
	for (int i = 0; i < n; i++)
		emit_jmp_imm(&g->e, BPF_JEQ, R0, nrs[i], hit);
	emit_ja(&g->e, g->out);
	emit_label(&g->e, hit);
	if (kind == GUARD_EXEC_EXIT)
		return;
	emit_load(&g->e, 8, R0, R6, 8);
	if (exec) {
		emit_jmp_imm(&g->e, BPF_JSGE, R0, 0, g->out);
		return;
	}
	emit_jmp_imm(&g->e, BPF_JNE, R0, 0, g->out);
	emit_call(&g->e, BPF_FUNC_get_current_pid_tgid);
	emit_mov_reg(&g->e, R1, R0);
	emit_alu_imm(&g->e, BPF_RSH, R1, 32);
	emit_alu_imm(&g->e, BPF_LSH, R0, 32);
	emit_alu_imm(&g->e, BPF_RSH, R0, 32);
	emit_jmp_reg(&g->e, kind == GUARD_START_PROCESS ? BPF_JNE : BPF_JEQ,
		     R0, R1, g->out);
}

/*
 * sched_switch(preempt, prev, next, prev_state) is sleep when prev blocks
 * -- not preempted and no longer TASK_RUNNING, so it leaves the run queue
 * -- and preempt otherwise: prev stays runnable.  Before 5.18 TP_PROTO
 * has no prev_state (the argument must not be read then: the kernel
 * would refuse to attach), and prev's own state word, which __schedule
 * has not changed yet, says it.
 *
 *	state = ctx->args[3], or *(u32 *)&ctx->args[1]->__state (or ->state)
 *	SLEEP:    if (ctx->args[0] & 0xff || !state) goto out
 *	PREEMPT:  if (!(ctx->args[0] & 0xff) && state) goto out
 */
static int32_t task_state_off(struct cg *g)
{
	struct ktype_field st;

	if (ktype_field("task_struct.__state", &st) < 0 &&
	    ktype_field("task_struct.state", &st) < 0)
		diag_fail(g->d, 0, 0, "D_KTYPE", "sched:::sleep and preempt need "
			  "the kernel's BTF type information");
	return (int32_t)st.off[0];
}

static void guard_switch(struct cg *g, int kind)
{
	int pass = emit_new_label(&g->e);

	if (g->probe->tp_nargs < 4) {
		emit_load(&g->e, 8, R3, R6, 8);
		cg_kread(g, SLOT_FIRST, 4, task_state_off(g));
		emit_mov_reg(&g->e, R1, R0);
	} else {
		emit_load(&g->e, 8, R1, R6, 24);
	}
	emit_load(&g->e, 8, R0, R6, 0);
	emit_alu_imm(&g->e, BPF_AND, R0, 0xff);		/* a bool */
	emit_alu_imm(&g->e, BPF_LSH, R1, 32);		/* unsigned int */
	if (kind == GUARD_SLEEP) {
		emit_jmp_imm(&g->e, BPF_JNE, R0, 0, g->out);
		emit_jmp_imm(&g->e, BPF_JEQ, R1, 0, g->out);
		return;
	}
	emit_jmp_imm(&g->e, BPF_JNE, R0, 0, pass);
	emit_jmp_imm(&g->e, BPF_JNE, R1, 0, g->out);
	emit_label(&g->e, pass);
}

/*
 * proc:::exit is the exit of a process's last thread.  Where
 * sched_process_exit passes group_dead, that says it; where its TP_PROTO
 * has the task alone, do_exit() has already counted the thread out of
 * signal->live before the tracepoint, so the last one leaves it 0.  (The
 * argument must not be read where TP_PROTO lacks it: the kernel would
 * refuse to attach the program.)
 *	if (!(ctx->args[1] & 0xff)) goto out           group_dead passed
 *	if (ctx->args[0]->signal->live.counter) goto out   task alone
 */
static void guard_group_dead(struct cg *g)
{
	struct ktype_field sig, live;

	if (g->probe->tp_nargs >= 2) {
		emit_load(&g->e, 8, R0, R6, 8);
		emit_alu_imm(&g->e, BPF_AND, R0, 0xff);		/* a bool */
		emit_jmp_imm(&g->e, BPF_JEQ, R0, 0, g->out);
		return;
	}
	if (ktype_field("task_struct.signal", &sig) < 0 ||
	    ktype_field("signal_struct.live", &live) < 0)
		diag_fail(g->d, 0, 0, "D_KTYPE", "proc:::exit needs the kernel's "
			  "BTF type information");
	emit_load(&g->e, 8, R3, R6, 0);
	cg_kread(g, SLOT_FIRST, 8, (int32_t)sig.off[0]);
	emit_mov_reg(&g->e, R3, R0);
	cg_kread(g, SLOT_FIRST, 4, (int32_t)live.off[0]);
	emit_jmp_imm(&g->e, BPF_JNE, R0, 0, g->out);
}

/*
 * Probes sharing a tracepoint take only their own firings (catalog.h):
 *
 *	guard_group_dead()                           GUARD_GROUP_DEAD
 *	if (ctx->args[0] & 0xff) goto out            GUARD_NO_ARG0
 *	child = ctx->args[1]                         GUARD_CHILD_*
 *	if ((child->pid == child->tgid) != PROCESS) goto out
 */
static void guard(struct cg *g)
{
	struct ktype_field pid, tgid;

	switch (g->probe->guard) {
	case GUARD_GROUP_DEAD:
		guard_group_dead(g);
		return;
	case GUARD_NO_ARG0:
		emit_load(&g->e, 8, R0, R6, 0);
		emit_alu_imm(&g->e, BPF_AND, R0, 0xff);		/* a bool */
		emit_jmp_imm(&g->e, BPF_JNE, R0, 0, g->out);
		return;
	case GUARD_SLEEP:
	case GUARD_PREEMPT:
		guard_switch(g, g->probe->guard);
		return;
	case GUARD_EXEC_ENTER:
		guard_sys_enter_exec(g);
		return;
	case GUARD_EXEC_FAILED:
	case GUARD_EXEC_EXIT:
	case GUARD_START_PROCESS:
	case GUARD_START_THREAD:
		guard_sys_exit(g, g->probe->guard);
		return;
	case GUARD_CHILD_PROCESS:
	case GUARD_CHILD_THREAD:
		if (ktype_field("task_struct.pid", &pid) < 0 ||
		    ktype_field("task_struct.tgid", &tgid) < 0)
			diag_fail(g->d, 0, 0, "D_KTYPE", "%s:::%s needs the kernel's "
				  "BTF type information", g->probe->prov,
				  g->probe->name);
		emit_load(&g->e, 8, R3, R6, 8);
		cg_kread(g, SLOT_FIRST, 4, (int32_t)pid.off[0]);
		emit_mov_reg(&g->e, R7, R0);	/* r7 is free outside SYS */
		emit_load(&g->e, 8, R3, R6, 8);
		cg_kread(g, SLOT_FIRST, 4, (int32_t)tgid.off[0]);
		emit_jmp_reg(&g->e, g->probe->guard == GUARD_CHILD_PROCESS
					    ? BPF_JNE : BPF_JEQ, R0, R7, g->out);
		return;
	default:
		cg_net_guard(g);
		return;
	}
}

/*
 *	r6 = r1                       ctx
 *	*(u64 *)(fp - 8) = 0          the zero key
 *	if (globals.state) goto out   exit() was called
 *	SYS: r7 = lookup(sysinfo, &nr)
 *	pid, usdt: r7 = lookup(uprobes, &cookie)
 *	others: r9 = lookup(scratch, &zero)   (SYS, pid, usdt: in clause())
 */
/* The one syscall whose entry probe the program serves, or -1. */
static int32_t only_syscall(const struct cg *g)
{
	int32_t nr = -1;

	for (uint32_t i = 0; i < g->spec->nsysinfo; i++)
		if (g->spec->sysinfo[i].entry_mask) {
			if (nr >= 0)
				return -1;
			nr = (int32_t)i;
		}
	return nr;
}

/*
 * The syscall programs run for every system call of the machine: find
 * this syscall's entry, and leave at once -- before anything else -- when
 * no clause wants it.
 *	r7 = lookup(sysinfo, &nr); if (!r7 || !r7->mask) goto out
 * A program of one clause on the entry of one syscall compares the number
 * instead, and a predicate runs before the entry is looked up
 * (firing_lookup): a firing it rejects costs three instructions more than
 * the predicate.
 *	if (ctx->args[1] != nr) goto out
 */
static void sys_prologue(struct cg *g)
{
	bool entry = g->att == ATTACH_SYS_ENTER;

	if (g->sys_late >= 0) {
		emit_load(&g->e, 8, R0, R6, 8);		/* ctx->args[1]: id */
		emit_jmp_imm(&g->e, BPF_JNE, R0, g->sys_late, g->bare);
		return;
	}
	if (entry) {
		emit_load(&g->e, 8, R0, R6, 8);		/* ctx->args[1]: id */
		cg_store_slot(g, SLOT_FIRST, R0);
	} else {
		cg_sys_regs_word(g, SLOT_FIRST, PT_REGS_ORIG_AX);
	}
	cg_ld_map(g, R1, MAP_SYSINFO);
	cg_fp_ptr(g, R2, SLOT_FIRST);
	emit_call(&g->e, BPF_FUNC_map_lookup_elem);
	emit_jmp_imm(&g->e, BPF_JEQ, R0, 0, g->out);
	emit_mov_reg(&g->e, R7, R0);
	emit_load(&g->e, 8, R1, R7,
		  entry ? offsetof(struct sysinfo_entry, entry_mask)
			: offsetof(struct sysinfo_entry, return_mask));
	emit_jmp_imm(&g->e, BPF_JEQ, R1, 0, g->out);
}

/* The one uprobe site attached to this program, or -1 if there are more. */
static int only_site(const struct cg *g)
{
	int k = -1;

	for (int i = 0; i < g->spec->nuprobes; i++)
		if (g->spec->uprobes[i].att == g->att) {
			if (k >= 0)
				return -1;
			k = i;
		}
	return k;
}

/* Whether the kernel gives this program the cookie its probe was
 * attached with: through a multi link, a BPF link on a perf event
 * (5.15+), or on a trampoline (6.0+). */
static bool has_cookies(const struct cg *g)
{
	bool kprobe = g->att == ATTACH_KPROBE || g->att == ATTACH_KRETPROBE;

	if (g->att == ATTACH_FENTRY || g->att == ATTACH_FEXIT)
		return kcaps_has(KCAP_FENTRY_COOKIE);
	return kcaps_has(kprobe ? KCAP_KPROBE_MULTI : KCAP_UPROBE_MULTI) ||
	       (kcaps_has(KCAP_PERF_LINK) && kcaps_has(KCAP_ATTACH_COOKIE));
}

/*
 * A pid program serves many probes: the cookie it was attached with
 * names the one that fired.
 *	r7 = lookup(uprobes, &(u32)bpf_get_attach_cookie(ctx))
 *	if (!r7) goto out
 * A program with one site knows it: the key is a constant, the cookie
 * helper is not called, and the verifier inlines the lookup.  Without
 * cookies (before 5.15), each probe gets a copy of the program whose
 * constant is its own (spec_prog.site_insn; rt/uprobe.c):
 *	*(u32 *)(fp + SLOT_FIRST) = site		patched per copy
 */
static void uprobe_prologue(struct cg *g)
{
	int k = only_site(g);

	if (k >= 0) {
		emit_store_imm(&g->e, 4, R10, SLOT_FIRST, k);
	} else if (!has_cookies(g)) {
		g->site_label = emit_new_label(&g->e);
		emit_label(&g->e, g->site_label);
		emit_store_imm(&g->e, 4, R10, SLOT_FIRST, 0);
	} else {
		emit_mov_reg(&g->e, R1, R6);
		emit_call(&g->e, BPF_FUNC_get_attach_cookie);
		emit_store(&g->e, 4, R10, SLOT_FIRST, R0);
	}
	cg_ld_map(g, R1, g->spec->uprobe_map);
	cg_fp_ptr(g, R2, SLOT_FIRST);
	emit_call(&g->e, BPF_FUNC_map_lookup_elem);
	emit_jmp_imm(&g->e, BPF_JEQ, R0, 0, g->out);
	emit_mov_reg(&g->e, R7, R0);
}

/*
 * Option cpu=N: probes fire on CPU N only, as in DTrace.  BEGIN and END
 * are not probes of any CPU here -- dscope runs them itself -- so they
 * always fire (and ERROR runs in the program that faulted).
 *	if (bpf_get_smp_processor_id() != N) goto out
 */
static void cpu_filter(struct cg *g)
{
	if (g->c->cpu < 0 || g->att == ATTACH_BEGIN || g->att == ATTACH_END ||
	    g->att == ATTACH_REPLAY)
		return;
	emit_call(&g->e, BPF_FUNC_get_smp_processor_id);
	emit_jmp_imm(&g->e, BPF_JNE, R0, g->c->cpu, cg_early_out(g));
}

static void prologue(struct cg *g)
{
	emit_mov_reg(&g->e, R6, R1);
	if (g->att == ATTACH_SYS_ENTER && g->nclauses == 1)
		g->sys_late = only_syscall(g);
	if (g->sys_late < 0) {
		emit_store_imm(&g->e, 8, R10, SLOT_NEST, 0);	/* cg_epilogue() */
		cg_zero_slots(g);
	}
	/* END runs once probes stop */
	if (g->att != ATTACH_END && g->sys_late < 0)
		cg_state_test(g);
	cpu_filter(g);
	cg_zone_filter(g, cg_early_out(g));
	if (cg_is_sys(g))
		sys_prologue(g);
	if (cg_is_uprobe(g))
		uprobe_prologue(g);
	if (cg_is_sys(g) || cg_is_uprobe(g))
		return;		/* the clauses look the scratch area up */
	cg_scratch_lookup(g);
	g->have_scratch = true;
	if (g->att == ATTACH_RAW_TP)
		guard(g);
}

static const char *const attach_names[] = {
	[ATTACH_BEGIN] = "dscope_begin", [ATTACH_END] = "dscope_end",
	[ATTACH_SYS_ENTER] = "dscope_sys_ent", [ATTACH_SYS_EXIT] = "dscope_sys_ret",
	[ATTACH_PROFILE] = "dscope_profile", [ATTACH_TICK] = "dscope_tick",
	[ATTACH_RAW_TP] = "dscope_tp",
	[ATTACH_UPROBE] = "dscope_pid_ent", [ATTACH_URETPROBE] = "dscope_pid_ret",
	[ATTACH_USDT] = "dscope_usdt",
	[ATTACH_KPROBE] = "dscope_fbt_ent", [ATTACH_KRETPROBE] = "dscope_fbt_ret",
	[ATTACH_FENTRY] = "dscope_fentry", [ATTACH_FEXIT] = "dscope_fexit",
	[ATTACH_REPLAY] = "dscope_replay",
};

/* subs[0..n) then more[0..nmore), in the arena; the new count */
static int append_subs(struct arena *a, struct spec_subprog **subs, int n,
		       const struct spec_subprog *more, int nmore)
{
	struct spec_subprog *all;

	if (!nmore)
		return n;
	all = arena_alloc(a, sizeof(*all) * (size_t)(n + nmore));
	if (n)
		memcpy(all, *subs, sizeof(*all) * (size_t)n);
	memcpy(all + n, more, sizeof(*all) * (size_t)nmore);
	*subs = all;
	return n + nmore;
}

static void fixed_map(struct cg_ctx *c, const char *name, enum bpf_map_type type,
		      uint32_t key_size, uint32_t value_size, uint32_t entries,
		      uint32_t flags);

/* Whether this program is sleepable: see "Sleepable programs" above. */
static bool wants_sleep(struct cg *g, const struct cg_clause *cl, int n)
{
	static const enum dfunc reads[] = { DF_COPYIN, DF_COPYINSTR, DF_COPYINTO };
	static const enum dfunc bars[] = { DF_COPYOUT, DF_COPYOUTSTR, DF_USTACK,
					   DF_JSTACK };
	bool read = false;

	if ((g->att != ATTACH_UPROBE && g->att != ATTACH_URETPROBE &&
	     g->att != ATTACH_USDT) || !kcaps_has(KCAP_SLEEP_UPROBE))
		return false;
	for (int i = 0; i < n; i++)
		for (size_t k = 0; k < sizeof(reads) / sizeof(reads[0]); k++)
			read = read || cg_clause_calls(g, cl[i].clause, reads[k]);
	/* the ERROR clauses run in it too, where it faults (cg_error.c) */
	for (int i = 0; i < n + g->c->nerr; i++) {
		const struct cg_clause *c = i < n ? &cl[i] : &g->c->err_clauses[i - n];

		for (size_t k = 0; k < sizeof(bars) / sizeof(bars[0]); k++)
			if (cg_clause_calls(g, c->clause, bars[k]))
				return false;
	}
	return read;
}

/* The maps sleepable programs share, made for the first of them; the
 * ring holds what the principal buffer of one CPU would (bufsize, a
 * power of two of pages). */
static void sleep_maps(struct cg_ctx *c)
{
	uint32_t ring = 4096;

	if (c->spec->tscratch_map >= 0)
		return;
	while (ring < c->bufsize && ring < (1u << 30))
		ring <<= 1;
	c->spec->tscratch_map = c->spec->nmaps;
	fixed_map(c, "dscope_tscratch", BPF_MAP_TYPE_TASK_STORAGE, 4, SCRATCH_SIZE,
		  0, BPF_F_NO_PREALLOC);
	c->spec->sbuf_map = c->spec->nmaps;
	fixed_map(c, "dscope_sbuf", BPF_MAP_TYPE_RINGBUF, 0, 0, ring, 0);
}

int cg_program(struct cg_ctx *c, enum spec_attach att, uint64_t period_ns,
	       const struct probe *probe, const struct cg_clause *clauses,
	       int nclauses)
{
	struct cg g = { .c = c, .a = c->a, .d = c->d, .spec = c->spec,
			.att = att, .probe = probe, .nclauses = nclauses,
			.tmp_base = REC_MAX + c->spec->this_size, .sys_late = -1 };
	struct spec *sp = c->spec;

	g.sleepable = wants_sleep(&g, clauses, nclauses);
	g.ring_map = -1;
	if (g.sleepable) {
		sleep_maps(c);
		g.ring_map = sp->sbuf_map;
	}
	emit_init(&g.e, c->a);
	g.out = emit_new_label(&g.e);
	g.bare = emit_new_label(&g.e);
	prologue(&g);
	cg_strtok_reserve(&g, clauses, nclauses);
	for (int i = 0; i < nclauses; i++)
		cg_emit_clause(&g, &clauses[i]);
	if ((g.save_offcpu_stack || g.save_offcpu_ustack) && !g.have_scratch)
		cg_scratch_lookup(&g);
	cg_save_offcpu_stack(&g);
	cg_save_offcpu_ustack(&g);
	cg_epilogue(&g);
	if (att == ATTACH_REPLAY)
		cg_replay_check(&g);
	struct spec_subprog *subs = NULL, chill, *loops;
	int nsubs = cg_ustack_callbacks(&g, &subs);

	if (cg_chill_callback(&g, &chill))
		nsubs = append_subs(c->a, &subs, nsubs, &chill, 1);
	int nloops = cg_loop_callbacks(&g, &loops);

	nsubs = append_subs(c->a, &subs, nsubs, loops, nloops);

	int moved = emit_relax(&g.e, nsubs ? (int)subs[0].insn : g.e.n);

	for (int i = 0; i < nsubs; i++)	/* after the main program's islands */
		subs[i].insn += (uint32_t)moved;
	if (emit_resolve(&g.e) < 0)
		diag_fail(c->d, 0, 0, "D_INTERNAL", "unplaced label in code generator");

	struct spec_prog *p = ARENA_PUSH(c->a, sp->progs, sp->nprogs, c->progs_cap);

	p->name = attach_names[att];
	p->attach = att;
	p->type = att == ATTACH_PROFILE || att == ATTACH_TICK
			  ? BPF_PROG_TYPE_PERF_EVENT
		  : att == ATTACH_FENTRY || att == ATTACH_FEXIT
			  ? BPF_PROG_TYPE_TRACING
		  : cg_is_uprobe(&g) ? BPF_PROG_TYPE_KPROBE
			  : BPF_PROG_TYPE_RAW_TRACEPOINT;
	/* uprobe and kprobe programs are for multi links; the loader drops
	 * the attach type where the kernel has none (rt/load.c) */
	p->expected_attach_type = att == ATTACH_FENTRY ? BPF_TRACE_FENTRY
				: att == ATTACH_FEXIT ? BPF_TRACE_FEXIT
				: att == ATTACH_KPROBE || att == ATTACH_KRETPROBE
				  ? BPF_TRACE_KPROBE_MULTI
				: cg_is_uprobe(&g) ? ATTACH_TYPE_UPROBE_MULTI : 0;
	p->period_ns = period_ns;
	p->probe = probe;
	p->ninsns = g.e.n;
	p->subprogs = subs;
	p->nsubprogs = nsubs;
	p->sleepable = g.sleepable;
	p->replay_stacks = g.replay_stacks;
	p->site_insn = g.site_label ? g.e.label_pos[g.site_label] : -1;
	p->insns = arena_alloc(c->a, sizeof(struct bpf_insn) * (size_t)g.e.n);
	memcpy(p->insns, g.e.insns, sizeof(struct bpf_insn) * (size_t)g.e.n);
	p->fd = -1;
	return sp->nprogs - 1;
}

static void fixed_map(struct cg_ctx *c, const char *name, enum bpf_map_type type,
		      uint32_t key_size, uint32_t value_size, uint32_t entries,
		      uint32_t flags)
{
	struct spec *sp = c->spec;
	struct spec_map *m = ARENA_PUSH(c->a, sp->maps, sp->nmaps, c->maps_cap);

	m->name = name;
	m->type = type;
	m->key_size = key_size;
	m->value_size = value_size;
	m->max_entries = entries;
	m->flags = flags;
	m->fd = -1;
}

void cg_uprobe_map(struct cg_ctx *c)
{
	c->spec->uprobe_map = c->spec->nmaps;
	fixed_map(c, "dscope_uprobes", BPF_MAP_TYPE_ARRAY, 4,
		  sizeof(struct uprobe_entry), (uint32_t)c->spec->nuprobes, 0);
}

void cg_replay_map(struct cg_ctx *c)
{
	c->spec->replay_map = c->spec->nmaps;
	fixed_map(c, "dscope_replay", BPF_MAP_TYPE_ARRAY, 4,
		  sizeof(struct replay_val), 1, 0);
}

/* ORDER MAP: the indexes in spec.h */
void cg_fixed_maps(struct cg_ctx *c, uint32_t nsyscalls)
{
	uint32_t gsize = sizeof(struct globals_hdr) + c->spec->globals_size;

	fixed_map(c, "dscope_globals", BPF_MAP_TYPE_ARRAY, 4, cg_round8(gsize), 1, 0);
	fixed_map(c, "dscope_scratch", BPF_MAP_TYPE_PERCPU_ARRAY, 4, SCRATCH_SIZE,
		  SCRATCH_LEVELS, 0);
	fixed_map(c, "dscope_buf", BPF_MAP_TYPE_PERF_EVENT_ARRAY, 4, 4, 0, 0);
	fixed_map(c, "dscope_drops", BPF_MAP_TYPE_PERCPU_ARRAY, 4,
		  sizeof(struct drop_counts), 1, 0);
	fixed_map(c, "dscope_sysinfo", BPF_MAP_TYPE_ARRAY, 4,
		  sizeof(struct sysinfo_entry), nsyscalls ? nsyscalls : 1, 0);
	fixed_map(c, "dscope_spec", BPF_MAP_TYPE_ARRAY, 4, 8, c->spec->nspec + 1, 0);
	fixed_map(c, "dscope_wake", BPF_MAP_TYPE_RINGBUF, 0, 0, 4096, 0);
	fixed_map(c, "dscope_nest", BPF_MAP_TYPE_PERCPU_ARRAY, 4, 8, 1, 0);
}
