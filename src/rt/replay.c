/*
 * replay.c -- running a recorded trace through the script (replay.h).
 */
#include "rt/replay.h"

#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "prov/catalog.h"

/* Whether the trace's name for a probe ("prov:mod:func:name") is p's. */
static bool names(const char *rec, const struct probe *p)
{
	char full[4 * 130];

	snprintf(full, sizeof(full), "%s:%s:%s:%s", p->prov, p->mod, p->func,
		 p->name);
	return strcmp(rec, full) == 0;
}

/* 1 if name ("prov:mod:func:name") is a system call's entry, -1 its
 * return, else 0. */
static signed char sys_end(const char *name)
{
	const char *last = strrchr(name, ':');

	if (strncmp(name, "syscall:", 8) != 0 || !last)
		return 0;
	return strcmp(last, ":entry") == 0 ? 1 : strcmp(last, ":return") == 0 ? -1 : 0;
}

static struct replay_entry *entry_slot(struct replay *r, uint32_t tid)
{
	size_t mask = r->entries_cap - 1, i = (tid * 2654435761u) & mask;

	while (r->entries[i].tid && r->entries[i].tid != tid)
		i = (i + 1) & mask;
	return &r->entries[i];
}

/* Remember event ev as its thread's last system call entry. */
static int entry_keep(struct replay *r, uint32_t tid, size_t ev)
{
	struct replay_entry *s;

	if (!tid)
		return 0;
	if (2 * (r->nentries + 1) > r->entries_cap) {	/* grow: rehash */
		struct replay_entry *old = r->entries;
		size_t ocap = r->entries_cap;

		r->entries_cap = ocap ? 2 * ocap : 256;
		if (!(r->entries = calloc(r->entries_cap, sizeof(*r->entries)))) {
			r->entries = old;
			r->entries_cap = ocap;
			return -ENOMEM;
		}
		for (size_t i = 0; i < ocap; i++)
			if (old[i].tid)
				*entry_slot(r, old[i].tid) = old[i];
		free(old);
	}
	s = entry_slot(r, tid);
	r->nentries += !s->tid;
	*s = (struct replay_entry){ tid, ev };
	return 0;
}

/* The event whose strings e has: e, or its thread's last entry if e is
 * a system call's return; NULL: none (a return whose entry the trace
 * does not hold). */
static const struct ctf_replayed *strings_of(struct replay *r,
					     const struct ctf_replayed *e)
{
	struct replay_entry *s;

	if (r->sys_end[e->cls] != -1)
		return e;
	if (!r->entries_cap)
		return NULL;
	s = entry_slot(r, e->rec.tid);
	return s->tid ? &r->t->events[s->ev] : NULL;
}

/*
 * v's strings: those of se (e's entry, or e), and, at a return, those
 * the entry could not copy and the return did (spec/record.h): at the
 * address the entry was given, as a live copyinstr() there reads it.
 */
static void fill_strings(const struct replay *r, const struct ctf_replayed *e,
			 const struct ctf_replayed *se, struct replay_val *v)
{
	const struct ctf_trace *t = r->t;

	memset(v->rec.str_addr, 0, sizeof(v->rec.str_addr));
	memset(v->rec.str_ok, 0, sizeof(v->rec.str_ok));
	for (int i = 0; i < RECORD_STRS; i++)
		memset(v->strs[i], 0, RECORD_STR);
	if (!se)
		return;
	memcpy(v->rec.str_addr, se->rec.str_addr, sizeof(v->rec.str_addr));
	memcpy(v->rec.str_ok, se->rec.str_ok, sizeof(v->rec.str_ok));
	for (int i = 0; i < RECORD_STRS; i++)
		if (se->rec.str_ok[i])
			strncpy(v->strs[i], t->pool + se->str_off[i], RECORD_STR - 1);
	if (se == e || !t->strs_of_entry[e->cls])
		return;
	for (int i = 0; i < t->nstrs[e->cls]; i++) {
		int k = t->strs[e->cls][i];

		if (!e->rec.str_ok[i])
			continue;
		for (int m = 0; m < t->nstrs[se->cls]; m++)
			if (t->strs[se->cls][m] == k && !se->rec.str_ok[m]) {
				v->rec.str_ok[m] = 1;
				v->rec.str_addr[m] = (uint64_t)se->rec.args[k];
				strncpy(v->strs[m], t->pool + e->str_off[i],
					RECORD_STR - 1);
			}
	}
}

/* v's stacks: those e recorded (ctf.h), laid out as stack() and
 * ustack() lay them out live (a user stack's pid first), 0 after. */
static void fill_stacks(const struct ctf_trace *t, const struct ctf_replayed *e,
			struct replay_val *v)
{
	memset(v->kstack, 0, sizeof(v->kstack));
	memset(v->ustack, 0, sizeof(v->ustack));
	for (int user = 0; user < 2; user++) {
		uint32_t id = user ? e->ustack_id : e->stack_id;
		uint64_t *w = user ? v->ustack : v->kstack;
		const struct ctf_stack *st;
		uint32_t at = 0;

		if (!id || !(st = ctf_trace_stack(t, id)) || st->user != user)
			continue;	/* none, or a definition the trace lost */
		if (user)
			w[at++] = st->pid;
		for (uint32_t i = 0; i < st->n && at + 1 < RECORD_STACK; i++)
			w[at++] = st->f[i].pc;
	}
}

/*
 * A program that reads a stack its probe's events did not record would
 * see none, where live it had one: refused, as what a trace does not
 * hold is refused when compiling (cg_record.c), before any event runs.
 * A probe whose events never fired has no class, nothing to run.
 */
static int stacks_missing(const struct ctf_trace *t, int cls, const struct spec_prog *p,
			  FILE *err, const char *progname)
{
	static const struct { uint8_t spec, ctf; const char *what; } need[] = {
		{ SPEC_REPLAY_KSTACK, CTF_KSTACK, "stack" },
		{ SPEC_REPLAY_USTACK, CTF_USTACK, "ustack" },
	};

	for (size_t i = 0; i < sizeof(need) / sizeof(need[0]); i++)
		if ((p->replay_stacks & need[i].spec) &&
		    !(t->stack_ids[cls] & need[i].ctf)) {
			fprintf(err, "%s: the clauses of %s use %s(), which the "
				"trace did not record with it: record with a clause "
				"that calls %s()\n", progname, t->probes[cls],
				need[i].what, need[i].what);
			return -1;
		}
	return 0;
}

int replay_open(struct replay *r, const struct spec *sp, const struct ctf_trace *t,
		FILE *err, const char *progname)
{
	memset(r, 0, sizeof(*r));
	r->sp = sp;
	r->t = t;
	r->ncpus = libbpf_num_possible_cpus();
	if (!(r->prog_fd = malloc(sizeof(int) * (size_t)(t->nprobes + 1))) ||
	    !(r->sys_end = calloc((size_t)t->nprobes + 1, 1)))
		return -ENOMEM;
	for (int c = 0; c < t->nprobes; c++)
		r->sys_end[c] = sys_end(t->probes[c]);
	if (!(r->ticks = calloc((size_t)sp->nprogs + 1, sizeof(*r->ticks))))
		return -ENOMEM;
	for (int i = 0; i < sp->nprogs; i++) {
		const struct probe *p = sp->progs[i].probe;

		if (sp->progs[i].attach == ATTACH_REPLAY && p &&
		    p->kind == PROV_TICK && p->period_ns && t->nevents)
			r->ticks[r->nticks++] = (struct replay_tick){
				.prog_fd = sp->progs[i].fd, .period = p->period_ns,
				.next = t->events[0].rec.timestamp + p->period_ns };
	}
	for (int c = 0; c < t->nprobes; c++) {
		r->prog_fd[c] = -1;
		for (int i = 0; i < sp->nprogs; i++)
			if (sp->progs[i].attach == ATTACH_REPLAY &&
			    names(t->probes[c], sp->progs[i].probe)) {
				r->prog_fd[c] = sp->progs[i].fd;
				if (stacks_missing(t, c, &sp->progs[i], err, progname) < 0)
					return -EINVAL;
			}
	}
	return 0;
}

/* Run program fd once over v, on the CPU v was recorded on if this
 * machine has it; 0 or -errno. */
static int run_one(struct replay *r, int fd, const struct replay_val *v)
{
	uint64_t args[12] = { 0 };
	uint32_t zero = 0;
	LIBBPF_OPTS(bpf_test_run_opts, opts, .ctx_in = args,
		    .ctx_size_in = sizeof(args));

	if ((int)v->rec.cpu < r->ncpus) {
		opts.flags = BPF_F_TEST_RUN_ON_CPU;
		opts.cpu = v->rec.cpu;
	}
	if (bpf_map_update_elem(r->sp->maps[r->sp->replay_map].fd, &zero, v,
				BPF_ANY) < 0 ||
	    (bpf_prog_test_run_opts(fd, &opts) < 0 &&
	     (errno != ENXIO ||	/* that CPU is offline here */
	      (opts.flags = 0, bpf_prog_test_run_opts(fd, &opts) < 0))))
		return -errno;
	return 0;
}

/* The tick due first at or before ts, or NULL. */
static struct replay_tick *tick_due(struct replay *r, uint64_t ts)
{
	struct replay_tick *due = NULL;

	for (int i = 0; i < r->nticks; i++)
		if (r->ticks[i].next <= ts && (!due || r->ticks[i].next < due->next))
			due = &r->ticks[i];
	return due;
}

int replay_run(struct replay *r, size_t n, FILE *err, const char *progname)
{
	static struct replay_val v;	/* the map's value, strings NUL-padded */
	struct replay_tick *tk;
	int rc;

	for (; n > 0 && r->next < r->t->nevents; r->next++) {
		const struct ctf_replayed *e = &r->t->events[r->next], *se;
		int fd = r->prog_fd[e->cls];

		while (n > 0 && (tk = tick_due(r, e->rec.timestamp))) {
			memset(&v, 0, sizeof(v));
			v.rec.timestamp = tk->next;
			tk->next += tk->period;
			if ((rc = run_one(r, tk->prog_fd, &v)) < 0) {
				fprintf(err, "%s: could not replay a tick: %s\n",
					progname, strerror(-rc));
				return rc;
			}
			n--;
		}
		if (n == 0)
			break;	/* this event's turn comes next time */
		if (r->sys_end[e->cls] == 1 &&
		    (rc = entry_keep(r, e->rec.tid, r->next)) < 0)
			return rc;
		if (fd < 0)
			continue;
		se = strings_of(r, e);
		v.rec = e->rec;
		if (r->sys_end[e->cls] == -1 && r->t->nargs[e->cls] == 1)
			v.rec.args[1] = v.rec.args[0];	/* the value, as live */
		fill_strings(r, e, se, &v);
		fill_stacks(r->t, e, &v);
		if ((rc = run_one(r, fd, &v)) < 0) {
			fprintf(err, "%s: could not replay %s: %s\n", progname,
				r->t->probes[e->cls], strerror(-rc));
			return rc;
		}
		n--;
	}
	return r->next >= r->t->nevents;
}

void replay_close(struct replay *r)
{
	free(r->prog_fd);
	free(r->ticks);
	free(r->sys_end);
	free(r->entries);
	memset(r, 0, sizeof(*r));
}
