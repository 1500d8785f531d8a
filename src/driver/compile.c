/*
 * compile.c -- from D sources to a spec.  See compile.h.
 *
 * Grouping is where DESIGN.md 3.2 and 3.5 meet: every clause that matches
 * a syscall entry probe goes into the one sys_enter program, in script
 * order, with the set of syscalls it matches recorded as a bit in each
 * syscall's sysinfo entry; BEGIN and END clauses go into their own
 * run-once programs; each profile or tick probe gets a program of its own,
 * and so does each tracepoint probe (sdt, sched, proc): one raw tracepoint
 * program holding every clause that matches it, in script order.  pid
 * entry, pid return and usdt probes get a program each, whose uprobes
 * carry the clause bits as syscalls do: a usdt probe's sites are one
 * uprobe each, the arguments of each site in its map entry.
 */
#include "driver/compile.h"

#include <limits.h>
#include <setjmp.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cg/cg.h"
#include "front/ctype.h"
#include "front/dlib.h"
#include "kern/ktypes.h"
#include "kern/kcaps.h"
#include "front/parse.h"
#include "front/sema.h"
#include "prov/catalog.h"
#include "prov/fbt.h"
#include "prov/syscalls.h"
#include "spec/record.h"

/*
 * A set of (probe ID, value) pairs, open addressing in the arena: a glob
 * such as pid$target:libc.so.6:: matches over a hundred thousand probes,
 * and asking "seen it?" of a list for each would be quadratic.
 */
struct pair_set {
	struct pair { uint64_t a, b; int val; } *slots;	/* a == 0: empty */
	size_t cap, n;
};

static size_t pair_hash(uint64_t a, uint64_t b, size_t cap)
{
	return (size_t)((a * 0x9e3779b97f4a7c15ull ^ b * 0xc2b2ae3d27d4eb4full) >>
			17) & (cap - 1);
}

/* The value stored for (a, b), a > 0; or -1, after storing val. */
static int pair_set_add(struct arena *ar, struct pair_set *s, uint64_t a,
			uint64_t b, int val)
{
	size_t i;

	if (2 * (s->n + 1) > s->cap) {
		struct pair_set old = *s;

		s->cap = s->cap ? 2 * s->cap : 256;
		s->slots = arena_alloc(ar, sizeof(*s->slots) * s->cap);
		s->n = 0;
		for (size_t k = 0; k < old.cap; k++)
			if (old.slots[k].a)
				pair_set_add(ar, s, old.slots[k].a, old.slots[k].b,
					     old.slots[k].val);
	}
	for (i = pair_hash(a, b, s->cap); s->slots[i].a; i = (i + 1) & (s->cap - 1))
		if (s->slots[i].a == a && s->slots[i].b == b)
			return s->slots[i].val;
	s->slots[i] = (struct pair){ a, b, val };
	s->n++;
	return -1;
}

/* A clause and the probes it matched. */
struct matched {
	struct clause *clause;
	const struct probe **probes;
	int nprobes, cap;
	struct pair_set seen;		/* the probes' IDs */
	struct arena *a;
	const struct compile_args *replay;	/* -x replay: keep the recorded
						 * probes only; NULL: all */
};

/* Whether the trace being replayed recorded p (BEGIN, END and ERROR are
 * dscope's own: always there; tick-N fires on the trace's clock,
 * replay.h). */
static bool recorded(const struct compile_args *args, const struct probe *p)
{
	if (catalog_mech(p->kind) == MECH_DTRACE || p->kind == PROV_TICK)
		return true;
	for (int i = 0; i < args->nrecorded; i++) {
		const char *r = args->recorded[i];
		size_t lp = strlen(p->prov), lm = strlen(p->mod), lf = strlen(p->func);

		if (strncmp(r, p->prov, lp) == 0 && r[lp] == ':' &&
		    strncmp(r + lp + 1, p->mod, lm) == 0 && r[lp + 1 + lm] == ':' &&
		    strncmp(r + lp + lm + 2, p->func, lf) == 0 &&
		    r[lp + lm + lf + 2] == ':' &&
		    strcmp(r + lp + lm + lf + 3, p->name) == 0)
			return true;
	}
	return false;
}

static int collect(const struct probe *p, void *arg)
{
	struct matched *m = arg;

	if (m->replay && !recorded(m->replay, p))
		return 0;
	if (pair_set_add(m->a, &m->seen, p->id, 0, 0) < 0)
		*ARENA_PUSH(m->a, m->probes, m->nprobes, m->cap) = p;
	return 0;
}

static void match_clause(struct catalog *cat, struct matched *m,
			 const struct options *o, struct diag *d)
{
	struct clause *c = m->clause;

	for (int i = 0; i < c->ndescs; i++) {
		const struct probe_desc *pd = c->descs[i];
		int before = m->nprobes, n = catalog__match(cat, pd, collect, m);

		if (m->replay && n > 0 && m->nprobes == before)
			diag_fail(d, pd->line, pd->col, "D_PDESC_ZERO",
				  "probe description %s:%s:%s:%s matches no probe "
				  "recorded in %s", pd->prov, pd->mod, pd->func,
				  pd->name, m->replay->replay_dir);
		if (n == 0 && !o->zdefs) {
			const char *hint = catalog__hint(cat);

			diag_fail(d, pd->line, pd->col, "D_PDESC_ZERO",
				  "probe description %s:%s:%s:%s does not match any "
				  "probes%s%s", pd->prov, pd->mod, pd->func, pd->name,
				  hint ? ": " : "", hint ? hint : "");
		}
	}
}

static void apply_pragmas(struct program *p, struct options *o, struct diag *d)
{
	char err[128];

	for (int i = 0; i < p->npragmas; i++) {
		const struct pragma_opt *po = p->pragmas[i];

		/* options that shape how the program is read, not how it runs */
		if (options_cmdline_only(po->name))
			diag_fail(d, po->line, 0, "D_PRAGMA_OPTSET",
				  "failed to set option '%s' to '%s': Option "
				  "cannot be used from within a D program",
				  po->name, po->value ? po->value : "");
		if (options_set(o, po->name, po->value, err, sizeof(err)) < 0)
			diag_fail(d, po->line, 0, "D_PRAGMA_OPTSET",
				  "failed to set option '%s' to '%s': %s", po->name,
				  po->value ? po->value : "", err);
	}
}

/* A probe name that stands for every name but return: pid's entry and
 * offset probes share the uprobe program (told by its address, not its
 * text) */
static const char not_return[] = "!return";

/* p is of mechanism m and named name (NULL: any name) */
static bool is_mech(const struct probe *p, enum prov_mech m, const char *name)
{
	if (catalog_mech(p->kind) != m)
		return false;
	if (name == not_return)
		return strcmp(p->name, "return") != 0;
	return !name || strcmp(p->name, name) == 0;
}

/* The clauses matching one attachment point, in script order, into *out
 * (the last probe matched into *last); their count. */
static int point_clauses(struct cg_ctx *c, struct matched *ms, int nm,
			 enum prov_mech mech, const char *name,
			 struct cg_clause **out, const struct probe **last)
{
	struct cg_clause *cl = arena_alloc(c->a, sizeof(*cl) * (size_t)(nm + 1));
	const struct probe *probe = NULL;
	/* programs serving many probes test a clause bit of the one that fired */
	bool masked = mech == MECH_SYSCALL || mech == MECH_UPROBE || mech == MECH_USDT ||
		      mech == MECH_KFUNC;
	int n = 0;

	for (int i = 0; i < nm; i++) {
		int hits = 0;

		for (int j = 0; j < ms[i].nprobes; j++) {
			const struct probe *p = ms[i].probes[j];

			if (is_mech(p, mech, name)) {
				hits++;
				probe = p;
			}
		}
		if (!hits)
			continue;
		cl[n].clause = ms[i].clause;
		cl[n].probe = hits == 1 ? probe : NULL;
		cl[n].mask_bit = masked ? n : -1;
		n++;
	}
	*out = cl;
	*last = probe;
	return n;
}

/* Emit the program of one attachment point, if any clause matches it. */
static void emit_point(struct cg_ctx *c, struct matched *ms, int nm,
		       enum spec_attach att, enum prov_mech mech, const char *name)
{
	struct cg_clause *cl;
	const struct probe *probe;
	int n = point_clauses(c, ms, nm, mech, name, &cl, &probe);

	if (n == 0)
		return;
	if (cl[0].mask_bit == 0 && n > 64)
		diag_fail(c->d, cl[64].clause->line, cl[64].clause->col,
			  "D_CLAUSES", "more than 64 clauses use %s%s%s probes",
			  catalog_prov_name(probe->kind),
			  name ? " " : "", !name ? "" : *name == '!' ? "entry or offset" : name);
	cg_program(c, att, 0, probe, cl, n);
}

/* dtrace:::ERROR's clauses, which run in the programs that fault
 * (cg_error.c); their epids come after BEGIN's and END's, one a clause. */
static void error_clauses(struct cg_ctx *c, struct matched *ms, int nm)
{
	struct cg_clause *cl;
	const struct probe *probe;
	int before = point_clauses(c, ms, nm, MECH_DTRACE, "BEGIN", &cl, &probe) +
		     point_clauses(c, ms, nm, MECH_DTRACE, "END", &cl, &probe);
	int n = point_clauses(c, ms, nm, MECH_DTRACE, "ERROR", &cl, &probe);

	cg_error_setup(c, probe, cl, n, c->spec->nepids + before);
}

/* A probe with a program of its own, and its clauses in script order. */
struct own_prog {
	const struct probe *probe;
	struct cg_clause *cl;
	int n, cap;
};

static bool has_own_program(const struct probe *p)
{
	enum prov_mech m = catalog_mech(p->kind);

	return m == MECH_TRACEPOINT || m == MECH_PROFILE || m == MECH_TICK;
}

/*
 * Each tracepoint, profile and tick probe gets its own program of every
 * clause matching it, in script order, and programs in the order their
 * probes are first matched, those marked attach_first first: a
 * tracepoint runs its programs in the order they were attached, and
 * proc:::exec's firing at sys_exit must come before exec-failure's at
 * the same sys_exit, whatever the script's order.  (Other lowered bases,
 * lockstat's, keep the matching order: tests/sh/lockstat.sh pairs
 * rw-block with an sdt contention_begin clause attached before them.)
 * One pass over the matches groups them:
 * `::: {}` matches every tracepoint in every clause, and a search per
 * probe would be quadratic.
 */
static void emit_single_probe_programs(struct cg_ctx *c, struct catalog *cat,
				       struct matched *ms, int nm)
{
	struct pair_set index = { 0 };
	struct own_prog *progs = NULL;
	int nprogs = 0, cap = 0;

	for (int i = 0; i < nm; i++)
		for (int j = 0; j < ms[i].nprobes; j++) {
			const struct probe *p = ms[i].probes[j];
			int k;

			if (!has_own_program(p))
				continue;
			if ((k = pair_set_add(c->a, &index, p->id, 0, nprogs)) < 0) {
				k = nprogs;
				*ARENA_PUSH(c->a, progs, nprogs, cap) =
					(struct own_prog){ .probe = p };
			}
			*ARENA_PUSH(c->a, progs[k].cl, progs[k].n, progs[k].cap) =
				(struct cg_clause){ ms[i].clause, p, -1 };
		}
	for (int k = 0; k < 2 * nprogs; k++) {
		const struct probe *p = progs[k % nprogs].probe;

		if (p->attach_first != (k < nprogs))
			continue;
		enum prov_mech m = catalog_mech(p->kind);

		if (m == MECH_TRACEPOINT)
			catalog__args(cat, p);	/* its tracepoint's TP_PROTO */
		cg_program(c, m == MECH_TICK ? ATTACH_TICK
			      : m == MECH_PROFILE ? ATTACH_PROFILE : ATTACH_RAW_TP,
			   p->period_ns, p, progs[k % nprogs].cl,
			   progs[k % nprogs].n);
	}
}

/*
 * -x replay: every recorded probe a clause matched gets a program of its
 * own, of every clause matching it in script order, run for each of its
 * recorded firings rather than attached.  A probe lowered onto another
 * (proc:::exec-success onto a tracepoint, its args[] translated from the
 * kernel's structures) has no recorded structures to translate from.
 */
static void emit_replay_programs(struct cg_ctx *c, struct catalog *cat,
				 struct matched *ms, int nm)
{
	struct pair_set index = { 0 };
	struct own_prog *progs = NULL;
	int nprogs = 0, cap = 0;

	for (int i = 0; i < nm; i++) {
		const struct probe *shown = ms[i].clause->shown;

		if (shown)
			diag_fail(c->d, ms[i].clause->line, ms[i].clause->col,
				  "D_REPLAY", "%s:%s:%s:%s cannot be replayed: its "
				  "arguments are translated from kernel structures "
				  "a trace does not record", shown->prov, shown->mod,
				  shown->func, shown->name);
		for (int j = 0; j < ms[i].nprobes; j++) {
			const struct probe *p = ms[i].probes[j];
			int k;

			if (catalog_mech(p->kind) == MECH_DTRACE)
				continue;
			if ((k = pair_set_add(c->a, &index, p->id, 0, nprogs)) < 0) {
				k = nprogs;
				*ARENA_PUSH(c->a, progs, nprogs, cap) =
					(struct own_prog){ .probe = p };
			}
			*ARENA_PUSH(c->a, progs[k].cl, progs[k].n, progs[k].cap) =
				(struct cg_clause){ ms[i].clause, p, -1 };
		}
	}
	for (int k = 0; k < nprogs; k++) {
		if (catalog_mech(progs[k].probe->kind) == MECH_TRACEPOINT)
			catalog__args(cat, progs[k].probe);
		cg_program(c, ATTACH_REPLAY, 0, progs[k].probe, progs[k].cl,
			   progs[k].n);
	}
}

/* Whether a clause has a syscall probe: only then is there a syscall
 * program, and a table for it to read. */
static bool uses_syscalls(const struct matched *ms, int nm)
{
	for (int i = 0; i < nm; i++)
		for (int j = 0; j < ms[i].nprobes; j++)
			if (catalog_mech(ms[i].probes[j]->kind) == MECH_SYSCALL)
				return true;
	return false;
}

/* The sysinfo table: names, probe IDs and clause masks by syscall nr;
 * empty (a map of one entry, never filled) without syscall probes. */
static void build_sysinfo(struct arena *a, struct catalog *cat, struct spec *sp,
			  struct matched *ms, int nm, bool record)
{
	uint32_t maxnr = 0;

	if (!uses_syscalls(ms, nm))
		return;
	for (uint32_t id = 1; id <= catalog__count(cat); id++) {
		const struct probe *p = catalog__by_id(cat, id);

		if (p && catalog_mech(p->kind) == MECH_SYSCALL &&
		    (uint32_t)p->sysnr + 1 > maxnr)
			maxnr = (uint32_t)p->sysnr + 1;
	}
	sp->nsysinfo = maxnr;
	sp->sysinfo = arena_alloc(a, sizeof(*sp->sysinfo) * (maxnr + 1));
	for (uint32_t id = 1; id <= catalog__count(cat); id++) {
		const struct probe *p = catalog__by_id(cat, id);

		if (!p || catalog_mech(p->kind) != MECH_SYSCALL)
			continue;
		struct sysinfo_entry *e = &sp->sysinfo[p->sysnr];

		snprintf(e->name, sizeof(e->name), "%s", p->func);
		if (strcmp(p->name, "entry") == 0)
			e->entry_id = p->id;
		else
			e->return_id = p->id;
	}
	/* clause bit n: the n-th clause of the program that uses syscalls */
	int nent = 0, nret = 0;

	for (int i = 0; i < nm; i++) {
		bool ent = false, ret = false;

		for (int j = 0; j < ms[i].nprobes; j++) {
			const struct probe *p = ms[i].probes[j];

			if (catalog_mech(p->kind) != MECH_SYSCALL)
				continue;
			bool is_entry = strcmp(p->name, "entry") == 0;
			struct sysinfo_entry *e = &sp->sysinfo[p->sysnr];

			if (is_entry && record && !e->entry_mask) {
				int idx[RECORD_STRS], n;

				n = syscalls_string_args(a, p, idx, RECORD_STRS);
				for (int k = 0; k < n; k++)
					e->str_args[k] = (uint8_t)(idx[k] + 1);
			}
			if (is_entry && nent < 64)
				e->entry_mask |= 1ull << nent;
			else if (!is_entry && nret < 64)
				e->return_mask |= 1ull << nret;
			ent |= is_entry;
			ret |= !is_entry;
		}
		nent += ent;
		nret += ret;
	}
}

/*
 * The programs that serve probe sites -- spec.uprobes, whose sites are
 * the pid and usdt probes' uprobes and fbt's kernel functions -- each
 * site attached to one of them.  fbt's attachment is chosen per script
 * (fbt_mechanism: kprobes or fentry); the others are fixed.
 */
enum site_prog {
	SITE_PID_ENTRY,		/* pid entry and offset probes */
	SITE_PID_RETURN,
	SITE_USDT,
	SITE_FBT_ENTRY,
	SITE_FBT_RETURN,
	NSITE_PROGS
};

/* The program of a pid, usdt or fbt probe; -1 for other probes. */
static int site_prog(const struct probe *p)
{
	bool ret = strcmp(p->name, "return") == 0;

	switch (catalog_mech(p->kind)) {
	case MECH_USDT:
		return SITE_USDT;
	case MECH_UPROBE:
		return ret ? SITE_PID_RETURN : SITE_PID_ENTRY;
	case MECH_KFUNC:
		return ret ? SITE_FBT_RETURN : SITE_FBT_ENTRY;
	default:
		return -1;
	}
}

/* One spec_uprobe per site of p (a pid probe has one), or the mask bit
 * added to the ones it has already. */
static void add_sites(struct arena *a, struct spec *sp, int *cap,
		      struct pair_set *sites, const struct probe *p,
		      enum spec_attach att, uint64_t bit)
{
	bool usdt = catalog_mech(p->kind) == MECH_USDT;
	int nsites = usdt ? p->nusites : 1;

	for (int s = 0; s < nsites; s++) {
		const struct usdt_site *us = usdt ? &p->usites[s] : NULL;
		uint64_t off = us ? us->uoffset : p->uoffset;
		int k = pair_set_add(a, sites, p->id, off, sp->nuprobes);

		if (k < 0) {
			k = sp->nuprobes;
			*ARENA_PUSH(a, sp->uprobes, sp->nuprobes, *cap) = (struct spec_uprobe){
				.probe = p, .att = att, .offset = off,
				.ref_ctr = us ? us->ref_ctr : 0, .args = us ? us->args : NULL };
		}
		sp->uprobes[k].mask |= bit;
	}
}

/* The pid, usdt and fbt sites, each with the mask of the clauses (numbered
 * within its program, as emit_point numbers them) it fires. */
static void build_uprobes(struct arena *a, struct spec *sp, struct matched *ms,
			  int nm, const enum spec_attach *atts)
{
	int cap = 0, bit[NSITE_PROGS] = { 0 };
	struct pair_set sites = { 0 };

	sp->uprobe_map = -1;
	sp->unwind_objs_map = sp->unwind_rows_map = -1;
	sp->unwind_procs_map = sp->unwind_want_map = sp->unwind_short_map = -1;
	sp->cpuinfo_map = -1;
	sp->tscratch_map = -1;
	sp->sbuf_map = -1;
	for (int i = 0; i < nm; i++) {
		bool used[NSITE_PROGS] = { false };

		for (int j = 0; j < ms[i].nprobes; j++) {
			const struct probe *p = ms[i].probes[j];
			int k = site_prog(p);

			if (k < 0)
				continue;
			used[k] = true;
			add_sites(a, sp, &cap, &sites, p, atts[k],
				  bit[k] < 64 ? 1ull << bit[k] : 0);
		}
		for (int k = 0; k < NSITE_PROGS; k++)
			bit[k] += used[k];
	}
}

/*
 * fbt's mechanism, per program (entry, return), chosen by what the
 * kernel allows and by how many functions the script names: fentry and
 * fexit are called straight from the function's trampoline, with no
 * breakpoint or ftrace handler between (the program's own time measured
 * the same either way, bench/RESULTS.md), but each function needs its own
 * copy of the program, verified and loaded, and a trampoline built
 * (about 0.5 s a function under TCG, against 20 ms a kprobe); kprobes
 * share one program, so a wide glob attaches faster through them.  So fentry
 * (fexit) when the kernel has it and the probes are at most
 * FBT_FENTRY_MAX functions of vmlinux, each with BTF; kprobes otherwise.
 */
#define FBT_FENTRY_MAX 8

/* Whether the script has fbt probes of that name (entry, return). */
static bool has_fbt(struct matched *ms, int nm, const char *name)
{
	for (int i = 0; i < nm; i++)
		for (int j = 0; j < ms[i].nprobes; j++)
			if (catalog_mech(ms[i].probes[j]->kind) == MECH_KFUNC &&
			    strcmp(ms[i].probes[j]->name, name) == 0)
				return true;
	return false;
}

static enum spec_attach fbt_mechanism(struct matched *ms, int nm, bool ret)
{
	const char *name = ret ? "return" : "entry";
	enum spec_attach kprobe = ret ? ATTACH_KRETPROBE : ATTACH_KPROBE;
	uint32_t ids[FBT_FENTRY_MAX];
	int n = 0;

	for (int i = 0; i < nm; i++)
		for (int j = 0; j < ms[i].nprobes; j++) {
			const struct probe *p = ms[i].probes[j];
			bool seen = false;

			if (catalog_mech(p->kind) != MECH_KFUNC || strcmp(p->name, name) != 0)
				continue;
			for (int k = 0; k < n; k++)
				seen |= ids[k] == p->id;
			if (seen)
				continue;
			if (n == FBT_FENTRY_MAX || !fbt_fentry_ok(p))
				return kprobe;
			ids[n++] = p->id;
		}
	/* the kernel is asked only by a script with fbt probes: a trial
	 * of fentry loads the kernel's BTF and attaches a trampoline */
	if (n == 0 || !fbt_fentry_usable())
		return kprobe;
	/* Without fentry_cookie (5.10) each program joins a function's
	 * trampoline by itself, and 5.10 refused the second (fexit on
	 * vfs_read after its fentry: EINVAL, with a kernel warning); a
	 * kretprobe beside fentry runs first and leaves its trampoline as
	 * the caller the entry sees.  So a script with both ends takes
	 * kprobes there, attached returns first (rt/uprobe.c). */
	if (!kcaps_has(KCAP_FENTRY_COOKIE) && has_fbt(ms, nm, ret ? "entry" : "return"))
		return kprobe;
	return ret ? ATTACH_FEXIT : ATTACH_FENTRY;
}

static uint32_t entries_of(uint64_t aggsize, uint32_t entry_size)
{
	uint64_t n = aggsize / entry_size;

	return n > 65536 ? 65536 : (uint32_t)n;
}

/*
 * aggsize is, as in DTrace, the space one CPU has for an aggregation: it
 * bounds the entries of each map, each lane's (spec.h).  Too small for
 * one entry leaves 0, which dscope__go reports ("Enabling exceeds size of
 * buffer").
 */
static void agg_entries(struct spec *sp, uint64_t aggsize)
{
	for (int i = 0; i < sp->naggs; i++) {
		const struct spec_agg *ag = &sp->aggs[i];
		uint32_t n = entries_of(aggsize, ag->kkey_size + ag->nwords * 8);

		for (int l = 0; l < ag->nlanes; l++)
			sp->maps[ag->lanes[l]].max_entries = n;
	}
	/* the stacks of stack keys (spec_agg) as one more aggregation's */
	for (int l = 0; l < sp->nstacks_lanes; l++) {
		struct spec_map *m = &sp->maps[sp->stacks_lanes[l]];

		m->max_entries = entries_of(aggsize, m->key_size + m->value_size);
	}
}

/* The D library's declarations, before the program's own.  An error in
 * it is dscope's bug, and says so. */
static void load_dlib(struct arena *a, struct sema *s)
{
	struct parse_opts po = { .filename = "<D library>", .is_library = true };
	struct diag d = { 0 };
	struct program *lib = parse_program(a, dlib_text, &po, &d);

	if (!lib)
		diag_fail(s->d, 0, 0, "D_INTERNAL", "the D library: line %d: %s",
			  d.line, d.msg);
	s->in_library = true;
	sema_decls(s, lib);
	s->in_library = false;
}

static bool kernel_typedef(void *arg, const char *name)
{
	(void)arg;
	return sema_find_builtin(name) < 0 && ktype_is_typedef(name);
}

/*
 * "#pragma D attributes A name" waits for the program to define name, a
 * global variable, associative array or inline; by the end of the
 * compile it must have, or the pragma was for nothing (dt_idpragma).
 */
static bool program_defines(const struct spec *sp, struct program **progs,
			    int nsrc, const char *name)
{
	for (int i = 0; i < sp->nglobals; i++)
		if (strcmp(sp->globals[i].name, name) == 0)
			return true;
	for (int i = 0; i < sp->ndvars; i++)
		if (sp->dvars[i].kind == DVAR_ASSOC &&
		    strcmp(sp->dvars[i].name, name) == 0)
			return true;
	for (int i = 0; i < nsrc; i++)
		for (int j = 0; j < progs[i]->ndecls; j++)
			if (progs[i]->decls[j]->kind == TOP_INLINE &&
			    strcmp(progs[i]->decls[j]->name, name) == 0)
				return true;
	return false;
}

static void check_attr_pragmas(const struct sema *s, struct program **progs,
			       int nsrc, struct compile_result *res)
{
	for (int i = 0; i < nsrc; i++)
		for (int j = 0; j < progs[i]->nattrs; j++) {
			const char *name = progs[i]->attrs[j].name;

			res->source = i;
			if (sema_find_builtin(name) < 0 &&
			    !program_defines(s->spec, progs, nsrc, name))
				diag_fail(s->d, progs[i]->attrs[j].line, 0,
					  "D_PRAGMA_UNUSED",
					  "unused #pragma attributes");
		}
}

/*
 * Lowered providers (lockstat, plockstat; catalog.h).  A clause matching
 * lowered probes is copied once for each, before sema: the copy matches
 * the probe's base, its predicate is the probe's guard && its own, and it
 * reports itself as the lowered probe (clause.shown).  The provider's
 * bookkeeping clauses -- D text, parsed here -- are compiled around the
 * program's: pre before the first clause using the provider, post after
 * the last clause of all, so at each base probe the state a guard reads
 * is set before and cleared after the program's clauses run.
 */
struct lowering {
	struct matched *ms;		/* every clause, in program order */
	int n, cap;
	const char **seen;		/* pre texts already compiled */
	int nseen, seen_cap;
	const char **post;		/* post texts, to compile last */
	int npost, post_cap;
};

/* The next clause of the program, zeroed; valid until the next call. */
static struct matched *lower_slot(struct arena *a, struct lowering *lw)
{
	struct matched *m = ARENA_PUSH(a, lw->ms, lw->n, lw->cap);

	memset(m, 0, sizeof(*m));
	m->a = a;
	m->clause = NULL;
	return m;
}

static void sema_matched(struct sema *s, struct matched *m, int id)
{
	m->clause->id = id;
	s->probes = m->clause->shown ? &m->clause->shown : m->probes;
	s->nprobes = m->clause->shown ? 1 : m->nprobes;
	s->lowered = m->clause->shown != NULL;
	sema_clause(s, m->clause);
	s->lowered = false;
}

/* A provider's bookkeeping clauses, each matched and checked as the
 * program's are; a mistake in them is dscope's. */
static void add_hidden(struct arena *a, struct catalog *cat, struct lowering *lw,
		       struct sema *s, const struct options *o, struct diag *d,
		       const char *text)
{
	struct parse_opts po = { .filename = "<provider>", .is_library = true };
	struct diag pd = { 0 };
	struct program *p = parse_program(a, text, &po, &pd);

	if (!p)
		diag_fail(d, 0, 0, "D_INTERNAL", "a provider's clauses: line %d: %s",
			  pd.line, pd.msg);
	sema_decls(s, p);
	for (int i = 0; i < p->nclauses; i++) {
		struct matched *m = lower_slot(a, lw);

		m->clause = p->clauses[i];
		match_clause(cat, m, o, d);
		sema_matched(s, m, lw->n - 1);
	}
}

static bool text_seen(const char **v, int n, const char *t)
{
	for (int i = 0; i < n; i++)
		if (v[i] == t)
			return true;
	return false;
}

/*
 * args[] is typed per probe, as in DTrace, whose dt_cc.c compiles a clause
 * once for each probe description, against its probe's arguments: a clause
 * over tcp:::connect-request (a packet) and tcp:::connect-established (a
 * socket), or over syscall::read:entry and syscall::openat:entry, means
 * each probe's own args[2].  So a clause whose probes differ in the args[]
 * it names is checked and generated once for each layout of them: the
 * clause keeps the probes of its first probe's layout, and a copy of it,
 * made before sema rewrites the clause, takes the probes of each other.
 * Each copy is a clause of its own to cg (a clause bit, where a program
 * serves many probes).
 */

/* What the args[] in `used` are at p, as text: equal for two probes when
 * sema types those args[] alike (the same type, or the same D library
 * view of the same tracepoint argument); "-" for one past p's last. */
static const char *args_layout(struct arena *a, struct catalog *cat,
			       const struct probe *p, unsigned used)
{
	const char *key = "";

	if (catalog__args(cat, p) < 0)
		return "?";
	for (int k = 0; k < 10; k++) {
		const struct probe_arg *pa = &p->args[k];

		if (!(used & (1u << k)) && !(used & ARGS_USED_ANY))
			continue;
		key = k >= p->nargs ? arena_printf(a, "%s|-", key)
			: arena_printf(a, "%s|%s;%s;%s;%d", key, pa->type,
				       pa->native ? pa->native : "",
				       pa->via ? pa->via : "", pa->raw);
	}
	return key;
}

/* Splits the clause of lw->ms[i], the last slot, by the layout of the
 * args[] it names; returns how many slots it now has, from i on. */
static int split_by_args(struct arena *a, struct catalog *cat,
			 struct lowering *lw, int i)
{
	struct matched *m = &lw->ms[i];
	struct clause *c = m->clause;
	unsigned used = node_args_used(c->pred) | node_list_args_used(&c->body);
	const struct probe **probes = m->probes;
	int nprobes = m->nprobes, nslots = 1;
	const char **keys = NULL;
	int nkeys = 0, kcap = 0;

	if (!used)
		return 1;
	m->nprobes = 0;	/* refilled in place: the j-th goes at most to j */
	for (int j = 0; j < nprobes; j++) {
		const char *key = args_layout(a, cat, probes[j], used);
		int k = 0;

		while (k < nkeys && strcmp(keys[k], key) != 0)
			k++;
		if (k == nkeys) {
			*ARENA_PUSH(a, keys, nkeys, kcap) = key;
			if (k > 0) {
				struct matched *cm = lower_slot(a, lw);
				struct clause *cp = arena_alloc(a, sizeof(*cp));

				*cp = *c;
				cp->pred = node_clone(a, c->pred);
				cp->body = node_list_clone(a, &c->body);
				cm->clause = cp;
				nslots++;
			}
		}
		m = &lw->ms[i + k];	/* lower_slot may have moved them */
		*ARENA_PUSH(a, m->probes, m->nprobes, m->cap) = probes[j];
	}
	return nslots;
}

/* Checks the clause just matched, the last of lw, once for each layout
 * of its args[]. */
static void sema_last(struct arena *a, struct catalog *cat, struct lowering *lw,
		      struct sema *s)
{
	int i = lw->n - 1, n = split_by_args(a, cat, lw, i);

	for (int k = 0; k < n; k++)
		sema_matched(s, &lw->ms[i + k], i + k);
}

/* The clause just matched (the last of lw): its lowered probes become
 * copies of it, preceded by their providers' pre clauses the first time;
 * it keeps its other probes, split by their args[] (split_by_args). */
static void lower_clause(struct arena *a, struct catalog *cat, struct lowering *lw,
			 struct sema *s, const struct options *o, struct diag *d)
{
	struct matched *m = &lw->ms[lw->n - 1];
	struct clause *c = m->clause;
	const struct probe **lowered = NULL;
	int nlowered = 0, lcap = 0, kept = 0;

	for (int j = 0; j < m->nprobes; j++) {
		const struct probe *p = m->probes[j];

		if (p->base)	/* each of its sites */
			for (const struct probe *q = p; q; q = q->alt)
				*ARENA_PUSH(a, lowered, nlowered, lcap) = q;
		else
			m->probes[kept++] = p;
	}
	m->nprobes = kept;
	if (!nlowered) {
		sema_last(a, cat, lw, s);
		return;
	}
	/* copies are made before sema rewrites c in place */
	struct clause **copies = arena_alloc(a, sizeof(*copies) * (size_t)nlowered);

	for (int k = 0; k < nlowered; k++) {
		const struct probe *p = lowered[k];
		struct clause *cp = arena_alloc(a, sizeof(*cp));
		struct node *g = NULL;

		*cp = *c;
		if (p->guard_inline) {
			g = node_new(a, N_IDENT, c->line, c->col);
			g->str = p->guard_inline;
			cp->pred = g;
		}
		if (c->pred && g) {
			cp->pred = node_new(a, N_BINARY, c->line, c->col);
			cp->pred->op = OP_LAND;
			cp->pred->a = g;
			cp->pred->b = node_clone(a, c->pred);
		} else if (c->pred) {
			cp->pred = node_clone(a, c->pred);
		}
		cp->body = node_list_clone(a, &c->body);
		cp->shown = p;
		copies[k] = cp;
	}
	if (kept)
		sema_last(a, cat, lw, s);
	else
		lw->n--;	/* nothing left of it but its copies */
	for (int k = 0; k < nlowered; k++) {
		const struct probe *p = lowered[k];

		if (p->pre && !text_seen(lw->seen, lw->nseen, p->pre)) {
			*ARENA_PUSH(a, lw->seen, lw->nseen, lw->seen_cap) = p->pre;
			add_hidden(a, cat, lw, s, o, d, p->pre);
		}
		if (p->post && !text_seen(lw->post, lw->npost, p->post))
			*ARENA_PUSH(a, lw->post, lw->npost, lw->post_cap) = p->post;
		m = lower_slot(a, lw);
		m->clause = copies[k];
		collect(p->base, m);
		sema_matched(s, m, lw->n - 1);
	}
}

/* -x record: every probe a clause enables, once, as the trace's
 * metadata lists them (a lowered probe's copy is recorded as the probe
 * it shows) */
static void enabled_probes(struct arena *a, struct spec *sp,
			   const struct matched *ms, int nm)
{
	struct pair_set seen = { 0 };
	int cap = 0;

	for (int i = 0; i < nm; i++) {
		const struct probe *shown = ms[i].clause->shown;

		for (int j = 0; j < (shown ? 1 : ms[i].nprobes); j++) {
			const struct probe *p = shown ? shown : ms[i].probes[j];

			if (catalog_mech(p->kind) != MECH_DTRACE &&
			    pair_set_add(a, &seen, p->id, 0, 0) < 0)
				*ARENA_PUSH(a, sp->enabled, sp->nenabled, cap) = p;
		}
	}
}

/*
 * #pragma D depends_on provider|module NAME: DTrace refuses a program
 * whose provider or kernel module this system lacks (dt_pragma_depends).
 * A module is one whose types the kernel describes, as DTrace needs its
 * CTF.
 */
static void check_depends_pragmas(struct catalog *cat, struct program **progs,
				  int nsrc, struct compile_result *res,
				  struct diag *d)
{
	for (int i = 0; i < nsrc; i++)
		for (int j = 0; j < progs[i]->ndepends; j++) {
			const struct pragma_opt *pd = &progs[i]->depends[j];
			bool found;

			if (!strcmp(pd->name, "provider")) {
				struct probe_desc any = {
					.prov = pd->value, .mod = "",
					.func = "", .name = "" };

				found = catalog__match(cat, &any, NULL, NULL) > 0;
			} else {
				char path[PATH_MAX];

				snprintf(path, sizeof(path), "/sys/kernel/btf/%s",
					 pd->value);
				found = access(path, F_OK) == 0;
			}
			res->source = i;
			if (!found)
				diag_fail(d, pd->line, 0, "D_PRAGMA_DEPEND",
					  "program requires %s %s", pd->name,
					  pd->value);
		}
}

static void compile_all(struct arena *a, struct catalog *cat,
			struct program **progs, int nsrc,
			const struct compile_args *args, struct options *o,
			struct compile_result *res, struct diag *d)
{
	struct spec *sp = arena_alloc(a, sizeof(*sp));
	struct sema s = { .a = a, .d = d, .spec = sp, .cat = cat,
			  .strsize = o->strsize,
			  .stackframes = o->stackframes,
			  .ustackframes = o->ustackframes,
			  .maxframes = o->maxframes,
			  .scratchsize = (uint32_t)o->scratchsize,
			  .types = ctypes_new(a, o->strsize) };
	struct matched *ms;
	int nm = 0;

	for (int i = 0; i < nsrc; i++)
		nm += progs[i]->nclauses;
	ms = arena_alloc(a, sizeof(*ms) * (size_t)(nm + 1));
	check_depends_pragmas(cat, progs, nsrc, res, d);
	if (!o->nolibs)
		load_dlib(a, &s);
	ctypes_set_ident_check(s.types, sema_ident_taken, &s);
	for (int i = 0; i < nsrc; i++) {
		res->source = i;
		sema_decls(&s, progs[i]);
	}
	struct lowering lw = { .ms = ms, .cap = nm + 1 };

	for (int i = 0; i < nsrc; i++)
		for (int j = 0; j < progs[i]->nclauses; j++) {
			struct matched *m = lower_slot(a, &lw);

			res->source = i;
			m->clause = progs[i]->clauses[j];
			m->replay = args->recorded ? args : NULL;
			match_clause(cat, m, o, d);
			sp->nprobes += m->nprobes;
			res->nprobes[i] += m->nprobes;
			lower_clause(a, cat, &lw, &s, o, d);
		}
	for (int i = 0; i < lw.npost; i++)
		add_hidden(a, cat, &lw, &s, o, d, lw.post[i]);
	ms = lw.ms;
	nm = lw.n;
	check_attr_pragmas(&s, progs, nsrc, res);
	if (o->record[0])
		enabled_probes(a, sp, ms, nm);

	struct cg_ctx c = { .a = a, .d = d, .spec = sp,
			    .unwind = o->ustackrows > 0, .cpu = o->cpu,
			    .bufsize = o->bufsize, .zone_filter = o->zone[0] != 0,
			    .record = o->record[0] != 0 };

	sp->quiet = o->quiet;
	sp->nspec = (uint32_t)o->nspec;
	c.aggsize_entries = options_agg_entries(o, 64);
	c.dynvar_bytes = o->dynvarsize;
	c.scratch_bytes = (uint32_t)o->scratchsize;
	build_sysinfo(a, cat, sp, ms, nm, o->record[0] != 0);
	cg_fixed_maps(&c, sp->nsysinfo);
	enum spec_attach atts[NSITE_PROGS] = {
		[SITE_PID_ENTRY] = ATTACH_UPROBE, [SITE_PID_RETURN] = ATTACH_URETPROBE,
		[SITE_USDT] = ATTACH_USDT,
		[SITE_FBT_ENTRY] = fbt_mechanism(ms, nm, false),
		[SITE_FBT_RETURN] = fbt_mechanism(ms, nm, true),
	};
	build_uprobes(a, sp, ms, args->recorded ? 0 : nm, atts);
	if (sp->nuprobes)
		cg_uprobe_map(&c);
	sp->replay_map = -1;
	if (args->recorded)
		cg_replay_map(&c);
	error_clauses(&c, ms, nm);
	emit_point(&c, ms, nm, ATTACH_BEGIN, MECH_DTRACE, "BEGIN");
	emit_point(&c, ms, nm, ATTACH_END, MECH_DTRACE, "END");
	cg_error_reserve(&c);
	if (args->recorded) {
		emit_replay_programs(&c, cat, ms, nm);
		agg_entries(sp, o->aggsize);
		res->spec = sp;
		return;
	}
	emit_point(&c, ms, nm, ATTACH_SYS_ENTER, MECH_SYSCALL, "entry");
	emit_point(&c, ms, nm, ATTACH_SYS_EXIT, MECH_SYSCALL, "return");
	emit_point(&c, ms, nm, ATTACH_UPROBE, MECH_UPROBE, not_return);
	emit_point(&c, ms, nm, ATTACH_URETPROBE, MECH_UPROBE, "return");
	emit_point(&c, ms, nm, ATTACH_USDT, MECH_USDT, NULL);
	emit_point(&c, ms, nm, atts[SITE_FBT_ENTRY], MECH_KFUNC, "entry");
	emit_point(&c, ms, nm, atts[SITE_FBT_RETURN], MECH_KFUNC, "return");
	emit_single_probe_programs(&c, cat, ms, nm);
	agg_entries(sp, o->aggsize);
	res->spec = sp;
}

int compile_sources(struct arena *a, struct catalog *cat,
		    const struct compile_source *src, int nsrc,
		    const struct compile_args *args, struct options *o,
		    struct compile_result *res, struct diag *d)
{
	/* volatile: read after the longjmp of a failed compile */
	struct program **volatile progs =
		arena_alloc(a, sizeof(*progs) * (size_t)(nsrc + 1));
	jmp_buf env;

	memset(res, 0, sizeof(*res));
	res->nprobes = arena_alloc(a, sizeof(int) * (size_t)(nsrc + 1));
	for (int i = 0; i < nsrc; i++) {
		struct parse_opts po = {
			.filename = src[i].filename ? src[i].filename : "",
			.argc = args->argc,
			.argv = args->argv,
			.target_pid = args->target_pid,
			.probe_only = src[i].probe_only,
			.defaultargs = o->defaultargs,
			.allow_empty = o->empty,
		};

		/* an identifier no D name claims may be a kernel typedef,
		 * as dt_lex.l asks every module's types */
		po.is_type = kernel_typedef;
		res->source = i;
		progs[i] = parse_program(a, src[i].text, &po, d);
		if (!progs[i])
			return -1;
	}
	d->env = &env;
	if (setjmp(env))
		return -1;
	for (int i = 0; i < nsrc; i++) {
		res->source = i;
		apply_pragmas(progs[i], o, d);
		/* an argument given for nothing is likely a mistake: DTrace
		 * checks the last one, once pragmas had their say (dt_cc.c) */
		if (args->argc > 1 && !o->argref &&
		    !progs[i]->macro_used[args->argc - 1])
			diag_fail(d, 0, 0, "D_MACRO_UNUSED",
				  "extraneous argument '%s' ($%d is not referenced)",
				  args->argv[args->argc - 1], args->argc - 1);
	}
	compile_all(a, cat, progs, nsrc, args, o, res, d);
	return 0;
}
