/*
 * consume.c -- principal buffers to output.  See consume.h.
 */
#include "rt/consume.h"

#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <linux/perf_event.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "prov/catalog.h"
#include "rt/attach.h"
#include "rt/container.h"
#include "rt/ctf.h"
#include "obj/ksym.h"
#include "rt/printtype.h"
#include "obj/usym.h"

static struct agg_sort_opts sort_opts(const struct consumer *c)
{
	struct agg_sort_opts so = {
		.sortkey = c->opts->aggsortkey,
		.sortrev = c->opts->aggsortrev,
		.sortpos = c->opts->aggsortpos,
		.sortkeypos = c->opts->aggsortkeypos,
	};

	return so;
}

/* Kernel addresses print as symbols from /proc/kallsyms, read when the
 * first one is printed; stackindent is the option's current value.
 * Under noresolve no address is named: stacks, sym(), usym() and %A
 * print addresses in hex, as DTrace prints them then. */
static const struct fmt_sym_ops *syms(struct consumer *c)
{
	bool names = !c->opts->noresolve;

	c->syms.lookup = names ? ksym_lookup : NULL;
	c->syms.ulookup = names ? usym_fmt_lookup : NULL;
	if (names && c->replayed) {
		/* a replay's stacks are the recorded machine's, named there:
		 * their frames take the trace's names, never this machine's */
		c->syms.lookup = ctf_trace_ksym;
		c->syms.ulookup = ctf_trace_usym;
		c->syms.ctx = (void *)c->replayed;
	}
	c->syms.stackindent = c->opts->stackindent;
	c->syms.target_pid = c->target_pid;
	c->syms.zname = container_fmt_name;
	return &c->syms;
}

/* The recorded fields of an action as values.  A stack's words are copied
 * after the values, in the same allocation: in the perf record they are
 * only 4-byte aligned. */
static struct fmt_val *field_vals(const struct spec_action *act,
				  const unsigned char *rec, uint32_t size)
{
	size_t nv = (size_t)act->nfields + 1, words = 0;

	for (int i = 0; i < act->nfields; i++)
		if (act->fields[i].type.kind == T_STACK)
			words += act->fields[i].type.size / 8;
	struct fmt_val *v = calloc(1, nv * sizeof(*v) + words * 8);
	uint64_t *stacks = v ? (uint64_t *)(v + nv) : NULL;

	for (int i = 0; v && i < act->nfields; i++) {
		const struct spec_field *f = &act->fields[i];
		bool bytes = f->type.kind == T_STRING ||
			     f->type.kind == T_STACK || f->type.kind == T_STRUCT;

		v[i].type = f->type;
		if (f->off + (bytes ? f->type.size : 8) > size)
			continue;	/* a short record: leave zero */
		if (f->type.kind == T_STRING || f->type.kind == T_STRUCT) {
			v[i].s = (const char *)rec + f->off;
		} else if (f->type.kind == T_STACK) {
			memcpy(stacks, rec + f->off, f->type.size);
			v[i].pcs = stacks;
			if (f->type.user)	/* name its frames while it lives */
				usym_note_pid((uint32_t)stacks[0]);
			stacks += f->type.size / 8;
		} else {
			memcpy(&v[i].u, rec + f->off, 8);
		}
	}
	return v;
}

static void do_printa(struct consumer *c, const struct spec_action *act)
{
	struct arena a = { 0 };
	struct agg_data *data = calloc((size_t)act->naggs + 1, sizeof(*data));
	struct agg_sort_opts so = sort_opts(c);

	for (int i = 0; data && i < act->naggs; i++) {
		agg_snapshot(&c->aggs, act->aggs[i], &a, &data[i]);
		c->aggs.printed[act->aggs[i]] = true;
	}
	if (data && c->em) {
		c->em->syms = syms(c);
		c->em->sort = so;
		c->em->ops->aggs(c->em, c->rec, data, act->naggs);
	} else if (data) {
		agg_printa(c->out, act->fmt, data, act->naggs, &so, syms(c));
	}
	free(data);
	arena_free(&a);
}

/*
 * setopt("name"[, "value"]): the option changes from here on (aggsortkey
 * and the like decide the next printa); a bad one is reported and
 * tracing goes on.  DTrace reports it as a library fault of the enabling
 * (dt_setopt, dt_handle_liberr): the enabled probe, then the message,
 * whose own newline dtrace(1) follows with another; a toggle (no value)
 * is set to "1".
 */
static void do_setopt(struct consumer *c, const struct spec_epid *ep,
		      const struct spec_action *act, const struct fmt_val *v)
{
	const char *name = v[0].s ? v[0].s : "";
	const char *value = act->nfields > 1 ? v[1].s : NULL;
	const struct probe *p = catalog__by_id(c->cat, c->rec_probe);
	char err[128];

	if (options_fixed_once_tracing(name))
		snprintf(err, sizeof(err), "Operation illegal when tracing is active");
	if (options_fixed_once_tracing(name) ||
	    options_set(c->opts, name, value, err, sizeof(err)) < 0) {
		fflush(c->out);
		fprintf(c->err, "%s: error on enabled probe ID %u (ID %u: "
			"%s:%s:%s:%s): couldn't set option \"%s\" to \"%s\": "
			"%s\n\n", c->progname, (unsigned)(ep - c->sp->epids) + 1,
			c->rec_probe, p ? p->prov : "", p ? p->mod : "",
			p ? p->func : "", p ? p->name : "", name,
			value ? value : "1", err);
	}
}

/* printf into a string */
static char *format_string(const struct spec_action *act,
			   const struct fmt_val *v)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		return NULL;
	fmt_print(f, act->fmt, v, act->nfields, NULL);
	fclose(f);
	return buf;
}

/* system(): our output so far first, then the command's, in order */
static void run_system(struct consumer *c, const struct spec_action *act,
		       const struct fmt_val *v)
{
	char *cmd = format_string(act, v);

	if (!cmd)
		return;
	fflush(c->out);
	if (system(cmd) == -1)
		fprintf(c->err, "%s: system(\"%s\") failed: %s\n", c->progname,
			cmd, strerror(errno));
	free(cmd);
}

/* freopen(): later output goes to the file; freopen("") restores */
static void do_freopen(struct consumer *c, const struct spec_action *act,
		       const struct fmt_val *v)
{
	char *path = format_string(act, v);

	if (!path)
		return;
	fflush(c->out);
	if (!path[0]) {
		if (c->out != c->orig_out)
			fclose(c->out);
		c->out = c->orig_out;
	} else {
		FILE *f = fopen(path, "a");

		if (!f) {
			fprintf(c->err, "%s: failed to freopen %s: %s\n",
				c->progname, path, strerror(errno));
		} else {
			if (c->out != c->orig_out)
				fclose(c->out);
			c->out = f;
		}
	}
	free(path);
}

static void replay(void *ctx, int cpu, const void *rec, uint32_t size);

/* print() and tracemem(): the recorded bytes (fields[1]) by type or in hex */
static void print_memory(struct consumer *c, const struct spec_action *act,
			 const unsigned char *rec, uint32_t size,
			 const struct fmt_val *v)
{
	const struct spec_field *f = &act->fields[1];
	uint32_t n = f->type.size < PRINT_MAX ? f->type.size : PRINT_MAX;

	if (f->off + n > size)
		return;		/* a short record */
	if (act->kind == ACT_PRINT) {
		printtype_print(c->out, v[0].u, &f->type, rec + f->off, n,
				c->opts->printsize);
		return;
	}
	if ((int64_t)v[0].u >= 0 && v[0].u < n)
		n = (uint32_t)v[0].u;
	if (n)
		printtype_hexdump(c->out, rec + f->off, n);
}

/* Under an emitter, the actions whose text the text printer makes into
 * a buffer for it (oformat.h); printa and exit it is given as values. */
static bool captured(const struct consumer *c, const struct spec_action *act)
{
	return c->em && (act->kind == ACT_PRINTF || act->kind == ACT_TRACE ||
			 act->kind == ACT_PRINT || act->kind == ACT_TRACEMEM);
}

/*
 * The arguments a probe's events keep: one program serves every system
 * call and records six arguments at an entry, two at a return, but a
 * call has the ones its tracepoint format declares (getppid none, kill
 * two) and its return one, the value (arg1 at a return is arg0 again:
 * the replay puts it back, replay.c).  The others are whatever the
 * registers held, which no script asks for: the trace leaves them out,
 * and the class's first event says how many for all (ctf.h).
 */
static int record_nargs_kept(struct consumer *c, const struct probe *p,
			     int nargs)
{
	int own;

	if (!p || catalog_mech(p->kind) != MECH_SYSCALL)
		return nargs;
	own = catalog__args(c->cat, p);
	return own >= 0 && own < nargs ? own : nargs;
}

/*
 * A system call's class, on first sight, names every string argument
 * of the call (its sysinfo entry's), whether or not this event copied
 * it: a return copies only those its entry could not (spec/record.h),
 * and another return of the same call may have others.
 */
static void record_strs_declared(struct consumer *c, const struct probe *p,
				 struct ctf_event *ev)
{
	const struct sysinfo_entry *e = NULL;

	for (uint32_t i = 0; p && i < c->sp->nsysinfo; i++)
		if (strcmp(c->sp->sysinfo[i].name, p->func) == 0)
			e = &c->sp->sysinfo[i];
	for (int j = 0; e && j < RECORD_STRS && e->str_args[j]; j++) {
		bool have = false;

		for (int i = 0; i < ev->nstrs; i++)
			have |= ev->strs[i].arg == e->str_args[j] - 1;
		if (!have && ev->nstrs < RECORD_STRS)
			ev->strs[ev->nstrs++] = (struct ctf_str){
				.arg = e->str_args[j] - 1, .s = "" };
	}
}

/*
 * A recorded stack's id in the trace (ctf.h), its definition written
 * first when the trace has not seen it: the frames named now, while the
 * process lives (a user stack's pid is words[0]), by the lookups the
 * live output uses, so a replay prints them as a live run would have.
 */
static uint32_t record_stack(struct consumer *c, const struct ctf_event *ev,
			     bool user, const uint64_t *words, uint32_t nwords)
{
	const struct fmt_sym_ops *so = syms(c);
	struct ctf_frame f[RECORD_STACK];
	struct ctf_event at = *ev;
	uint32_t n = 0, first = user ? 1 : 0;
	bool fresh;
	uint32_t id = ctf_writer__stack_id(c->ctf, user, words, nwords, &fresh);

	if (!fresh)
		return id;
	if (user) {
		at.pid = (uint32_t)words[0];
		usym_note_pid(at.pid);
	}
	for (uint32_t i = first; i < nwords && words[i] && n < RECORD_STACK; i++, n++) {
		f[n] = (struct ctf_frame){ .pc = words[i] };
		if (!(user ? so->ulookup && so->ulookup(so->ctx, at.pid, words[i],
							&f[n].mod, &f[n].sym, &f[n].symaddr)
			   : so->lookup && so->lookup(so->ctx, words[i], &f[n].mod,
						      &f[n].sym, &f[n].symaddr)))
			f[n].mod = f[n].sym = NULL;
		if (!f[n].sym)
			f[n].symaddr = 0;
	}
	if (ctf_writer__stack(c->ctf, c->rec_cpu, &at, id, user, f, n) < 0)
		return 0;
	return id;
}

/* -x record: the firing, one event of the trace (spec/record.h): its
 * built-in variables, its arguments, the stacks its clause asked for,
 * then a word and a string per string argument copied at the probe (at
 * a return, per one of its entry's). */
static void record_event(struct consumer *c, const struct spec_action *act,
			 const unsigned char *rec, uint32_t size)
{
	uint64_t u[RECORD_FIELDS_] = { 0 };
	int64_t args[RECORD_ARGS] = { 0 };
	char comm[RECORD_COMM + 1] = "", name[4 * 130];
	char strs[RECORD_STRS][RECORD_STR + 1];
	struct ctf_event ev = { .execname = comm, .args = args };
	int nargs = act->nfields - RECORD_FIELDS_, nstk = 0;
	const struct probe *p = catalog__by_id(c->cat, c->rec_probe);
	uint64_t stk[2][RECORD_STACK] = { { 0 } };	/* kernel, user */
	uint32_t stk_words[2] = { 0 };

	ev.strs_of_entry = p && catalog_mech(p->kind) == MECH_SYSCALL &&
			   strcmp(p->name, "return") == 0;

	for (int i = RECORD_FIELDS_; i < act->nfields; i++)
		nstk += act->fields[i].type.kind == T_STACK;
	for (int i = RECORD_FIELDS_; i < act->nfields; i++)
		if (act->fields[i].type.kind == T_STRING) {	/* the first string's word */
			nargs = i - 1 - RECORD_FIELDS_;
			break;
		}
	nargs -= nstk;
	if (!c->ctf || nargs < 0 || nargs > RECORD_ARGS ||
	    (act->nfields - RECORD_FIELDS_ - nargs - nstk) / 2 > RECORD_STRS)
		return;
	for (int i = 0; i < act->nfields; i++) {
		const struct spec_field *f = &act->fields[i];
		bool str = f->type.kind == T_STRING;
		uint32_t n = i == RF_EXECNAME ? RECORD_COMM : str ? RECORD_STR : 8;
		struct ctf_str *cs = &ev.strs[ev.nstrs];
		uint64_t word;

		if (f->type.kind == T_STACK) {	/* after the arguments */
			int user = f->type.user;

			if (f->off + f->type.size > size ||
			    f->type.size > sizeof(stk[user]))
				return;
			memcpy(stk[user], rec + f->off, f->type.size);
			stk_words[user] = f->type.size / 8;
			ev.stacks |= user ? CTF_USTACK : CTF_KSTACK;
			continue;
		}
		if (f->off + n > size) {
			if (i < RECORD_FIELDS_ + nargs)
				return;
			break;	/* the firing's syscall has no string more */
		}
		if (i == RF_EXECNAME)
			memcpy(comm, rec + f->off, RECORD_COMM);
		else if (i < RECORD_FIELDS_)
			memcpy(&u[i], rec + f->off, 8);
		else if (i < RECORD_FIELDS_ + nargs)
			memcpy(&args[i - RECORD_FIELDS_], rec + f->off, 8);
		else if (!str) {	/* k << 32 | (u32)r, r < 0: the copy
					 * faulted */
			memcpy(&word, rec + f->off, 8);
			cs->arg = (int)(word >> 32);
			cs->copied = (int32_t)(uint32_t)word >= 0;
			if (cs->arg >= (ev.strs_of_entry ? RECORD_ARGS : nargs))
				return;
		} else {
			memcpy(strs[ev.nstrs], rec + f->off, RECORD_STR);
			strs[ev.nstrs][RECORD_STR] = 0;
			cs->s = strs[ev.nstrs];
			ev.nstrs++;
		}
	}
	ev.timestamp = u[RF_TIMESTAMP];
	ev.pid = (uint32_t)u[RF_PID];
	ev.tid = (uint32_t)u[RF_TID];
	ev.uid = (uint32_t)u[RF_UID];
	ev.gid = (uint32_t)u[RF_GID];
	ev.nargs = nargs;
	if (ev.stacks & CTF_KSTACK)
		ev.stack_id = record_stack(c, &ev, false, stk[0], stk_words[0]);
	if (ev.stacks & CTF_USTACK)
		ev.ustack_id = record_stack(c, &ev, true, stk[1], stk_words[1]);
	if (!ctf_writer__knows(c->ctf, c->rec_probe)) {
		snprintf(name, sizeof(name), "%s:%s:%s:%s", p ? p->prov : "?",
			 p ? p->mod : "", p ? p->func : "", p ? p->name : "");
		ev.nargs = record_nargs_kept(c, p, nargs);
		if (act->nfields > RECORD_FIELDS_ + nargs)	/* it has string slots */
			record_strs_declared(c, p, &ev);
	}
	ctf_writer__event(c->ctf, c->rec_cpu, c->rec_probe, name, &ev);
}

static void do_action(struct consumer *c, const struct spec_epid *ep,
		      const struct spec_action *act, const unsigned char *rec,
		      uint32_t size)
{
	struct fmt_val *v = field_vals(act, rec, size);
	struct agg_sort_opts so = sort_opts(c);
	FILE *out = c->out;
	char *text = NULL;
	size_t len = 0;

	if (act->kind == ACT_RECORD) {
		free(v);
		record_event(c, act, rec, size);
		return;
	}
	if (!v)
		return;
	if (captured(c, act) && !(c->out = open_memstream(&text, &len))) {
		c->out = out;
		free(v);
		return;
	}
	switch (act->kind) {
	case ACT_PRINTF:
		fmt_print(c->out, act->fmt, v, act->nfields, syms(c));
		break;
	case ACT_SYSTEM:
		run_system(c, act, v);
		break;
	case ACT_FREOPEN:
		do_freopen(c, act, v);
		break;
	case ACT_TRACE:
		/* data traced by reference other than a string prints as
		 * bytes (dtrace-utils' dt_print_trace) */
		if (v[0].type.kind == T_STRUCT && v[0].s)
			printtype_hexdump(c->out, (const unsigned char *)v[0].s,
					  v[0].type.size);
		else if (!c->opts->rawbytes ||
			 !fmt_trace_raw(c->out, &v[0], c->opts->strsize))
			fmt_trace(c->out, &v[0], c->opts->quiet, syms(c));
		break;
	case ACT_EXIT:
		/* the first exit() decides, but END's has the last word, as
		 * in DTrace */
		if (!c->done || ep->end)
			c->exit_status = (int)v[0].u;
		c->done = true;
		break;
	case ACT_PRINTA:
		do_printa(c, act);
		break;
	case ACT_CLEAR:
		metrics_reset_begin(c->metrics, act->aggs[0]);
		agg_clear(&c->aggs, act->aggs[0]);
		metrics_reset_end(c->metrics, act->aggs[0]);
		break;
	case ACT_TRUNC:
		metrics_reset_begin(c->metrics, act->aggs[0]);
		agg_trunc(&c->aggs, act->aggs[0], act->nfields > 0,
			  act->nfields > 0 ? (int64_t)v[0].u : 0, &so);
		metrics_reset_end(c->metrics, act->aggs[0]);
		break;
	case ACT_NORMALIZE:
		c->aggs.descs[act->aggs[0]].normal = v[0].u;
		break;
	case ACT_DENORMALIZE:
		c->aggs.descs[act->aggs[0]].normal = 0;
		break;
	case ACT_SETOPT:
		do_setopt(c, ep, act, v);
		break;
	case ACT_COMMIT:
	case ACT_DISCARD:
		if (v[0].u)
			specbuf_end(&c->specs, v[0].u, act->kind == ACT_COMMIT,
				    replay, c);
		break;
	case ACT_PRINT:
	case ACT_TRACEMEM:
		print_memory(c, act, rec, size, v);
		break;
	case ACT_DEFAULT:
	case ACT_SPECULATE:
	case ACT_RECORD:
		break;
	}
	if (captured(c, act)) {
		fclose(c->out);
		c->out = out;
	}
	if (captured(c, act) || (c->em && act->kind == ACT_EXIT))
		c->em->ops->action(c->em, c->rec, act, v, text, len);
	free(text);
	free(v);
}

static const char *fault_name(uint64_t fault)
{
	static const char *const names[] = {
		[FLT_BADADDR] = "invalid address",
		[FLT_BADALIGN] = "invalid alignment",
		[FLT_ILLOP] = "illegal operation",
		[FLT_DIVZERO] = "divide-by-zero",
		[FLT_NOSCRATCH] = "out of scratch space",
		[FLT_KPRIV] = "invalid kernel access",
		[FLT_UPRIV] = "invalid user access",
		[FLT_TUPOFLOW] = "tuple stack overflow",
		[FLT_BADSTACK] = "bad stack",
		[FLT_BADSIZE] = "bad size",
		[FLT_BADINDEX] = "index out of bounds",
	};

	return fault < sizeof(names) / sizeof(names[0]) && names[fault]
		       ? names[fault] : "unknown fault";
}

/*
 * A run-time error, reported as DTrace reports it:
 *   error on enabled probe ID 2 (ID 1: dtrace:::BEGIN): invalid address
 *   (0x8) in action #1
 * whether or not the script has ERROR clauses: dtrace(1) always enables
 * its own (libdtrace's dtrace_handle_err, _dt_errprog), whose record
 * this line is.  The script's ERROR clauses ran in the faulting firing
 * (cg_error.c): their records follow this one.
 *
 * A fault in an ERROR clause prints no error line: it is counted, and
 * reported as DTrace's status is ("1 error in ERROR probe enabling");
 * dtrace_probe does not recurse on the ERROR probe.
 */
static void on_error(struct consumer *c, const struct err_record *er)
{
	const struct probe *p = catalog__by_id(c->cat, er->probe_id);
	char details[40] = "", where[32], msg[512];

	if (p && strcmp(p->prov, "dtrace") == 0 && strcmp(p->name, "ERROR") == 0) {
		c->dblerrors++;
		return;
	}
	if (er->fault == FLT_BADADDR || er->fault == FLT_BADALIGN ||
	    er->fault == FLT_BADSTACK || er->fault == FLT_BADSIZE)
		snprintf(details, sizeof(details), " (0x%llx)",
			 (unsigned long long)er->addr);
	else if (er->fault == FLT_BADINDEX)	/* the index, as dt_handle.c */
		snprintf(details, sizeof(details), " (%lld)",
			 (long long)er->addr);
	if (er->action)
		snprintf(where, sizeof(where), "action #%u", er->action);
	else
		snprintf(where, sizeof(where), "predicate");
	snprintf(msg, sizeof(msg), "error on enabled probe ID %u (ID %u: "
		 "%s:%s:%s:%s): %s%s in %s", er->clause_epid + 1, er->probe_id,
		 p ? p->prov : "", p ? p->mod : "", p ? p->func : "",
		 p ? p->name : "", fault_name(er->fault), details, where);
	fflush(c->out);
	fprintf(c->err, "%s: %s\n", c->progname, msg);
	if (c->em)
		c->em->ops->error(c->em, er, p, msg);
	c->errors++;
}

/* Did act run in this firing (an action in an if's branch may not)? */
static bool ran(const struct spec_action *act, const unsigned char *rec,
		uint32_t size)
{
	uint64_t word = 1;

	if (act->ran_off && act->ran_off + 8 <= size)
		memcpy(&word, rec + act->ran_off, 8);
	return word != 0;
}

/* Does this record of ep print anything (commit and discard alone do
 * not)? */
static bool prints(const struct spec_epid *ep, const unsigned char *rec,
		   uint32_t size)
{
	for (int i = 0; i < ep->nacts; i++)
		if (ep->acts[i].kind != ACT_SPECULATE &&
		    ep->acts[i].kind != ACT_COMMIT &&
		    ep->acts[i].kind != ACT_DISCARD &&
		    ep->acts[i].kind != ACT_RECORD &&
		    ran(&ep->acts[i], rec, size))
			return true;
	return false;
}

/* A speculative record (its clause's speculate() ran) is held until its
 * speculation ends; true if it is not to be printed now. */
static bool held_back(struct consumer *c, int cpu, const struct spec_epid *ep,
		      const unsigned char *rec, uint32_t size)
{
	uint64_t tag = 0;

	for (int i = 0; i < ep->nacts; i++)
		if (ep->acts[i].kind == ACT_SPECULATE &&
		    ep->acts[i].fields[0].off + 8 <= size &&
		    ran(&ep->acts[i], rec, size))
			memcpy(&tag, rec + ep->acts[i].fields[0].off, 8);
	/* the perf sample is padded: hold and count the record's own size */
	return tag && specbuf_add(&c->specs, tag, cpu, rec,
				  ep->size < size ? ep->size : size,
				  c->opts->specsize) != SB_PRINT;
}

/* Is name "entry" (or "return") or does it end in "-entry"?  So that a
 * USDT probe "method-entry" takes part, but "gentry" does not. */
static bool flow_name(const char *name, const char *kind)
{
	size_t n = strlen(name), k = strlen(kind);

	return n >= k && strcmp(name + n - k, kind) == 0 &&
	       (n == k || name[n - k - 1] == '-');
}

/*
 * flowindent (-F), DTrace's rule (libdtrace's dt_flowindent): an entry
 * probe prints " -> func" and indents what follows on its CPU by two
 * spaces; a return comes back two and prints " <- func"; syscall's use
 * "=>" and "<=".  Any other probe prints "| func:name" at the current
 * depth.  A second clause of the probe just shown is not a second
 * entry: it does not indent again.
 */
static void flow_heading(struct consumer *c, int cpu, uint32_t epid,
			 uint32_t probe_id, const struct probe *p)
{
	struct flow_state *f = &c->flow[cpu < c->ncpus ? cpu : 0];
	const char *func = p ? p->func : "", *name = p ? p->name : "";
	bool sys = p && strcmp(p->prov, "syscall") == 0;
	bool entry = flow_name(name, "entry") &&
		     !(probe_id == f->probe_id && epid != f->epid);
	bool ret = !entry && flow_name(name, "return");

	if (ret && f->indent > 0)
		f->indent -= 2;
	fmt_flow_heading(c->out, c->testing, cpu, f->indent,
			 entry ? (sys ? " => " : " -> ")
			 : ret ? (sys ? " <= " : " <- ") : "| ",
			 func, entry || ret ? NULL : name);
	if (entry)
		f->indent += 2;
	f->probe_id = probe_id;
	f->epid = epid;
}

static void process_record(struct consumer *c, int cpu,
			   const unsigned char *rec, uint32_t size,
			   bool speculative)
{
	uint32_t epid, probe_id;

	if (size < REC_HDR)
		return;
	memcpy(&epid, rec, 4);
	memcpy(&probe_id, rec + 4, 4);
	if (epid == EPID_ERROR && size >= sizeof(struct err_record)) {
		struct err_record er;

		memcpy(&er, rec, sizeof(er));
		on_error(c, &er);
		return;
	}
	if (epid >= (uint32_t)c->sp->nepids)
		return;
	const struct spec_epid *ep = &c->sp->epids[epid];

	bool flow = c->opts->flowindent;
	/* under flowindent the heading is the call tree: dtrace(1) prints
	 * it even when quiet, and leaves only the newline out */
	bool shown = prints(ep, rec, size);
	bool heading = !c->em && (!c->opts->quiet || flow) && shown;
	struct emit_record *outer = c->rec;

	if (!speculative && held_back(c, cpu, ep, rec, size))
		return;
	c->rec_probe = probe_id;
	c->rec_cpu = cpu;
	if (c->em && shown)
		c->rec = c->em->ops->record_begin(c->em, cpu, probe_id,
						  catalog__by_id(c->cat, probe_id));
	if (heading) {
		const struct probe *p = catalog__by_id(c->cat, probe_id);

		if (!c->header_done)
			fmt_probe_header(c->out, c->testing, flow);
		c->header_done = true;
		if (flow)
			flow_heading(c, cpu, epid, probe_id, p);
		else
			fmt_probe_heading(c->out, c->testing, cpu, probe_id,
					  p ? p->func : "", p ? p->name : "");
	}
	for (int i = 0; i < ep->nacts; i++)
		if (ran(&ep->acts[i], rec, size))
			do_action(c, ep, &ep->acts[i], rec, size);
	if (heading && !c->opts->quiet)
		fputc('\n', c->out);
	if (c->em && shown)
		c->em->ops->record_end(c->em, c->rec);
	c->rec = outer;
}

struct stashed {
	struct stashed *next;
	int cpu;
	uint32_t size;
	unsigned char rec[];
};

static void on_record(void *ctx, int cpu, void *data, __u32 size)
{
	struct consumer *c = ctx;
	struct stashed *s;

	if (!c->stashing) {
		process_record(ctx, cpu, data, size, false);
		return;
	}
	if (!(s = malloc(sizeof(*s) + size))) {
		fprintf(c->err, "%s: out of memory for BEGIN's records\n",
			c->progname);
		return;
	}
	s->next = NULL;
	s->cpu = cpu;
	s->size = size;
	memcpy(s->rec, data, size);
	*c->stash_end = s;
	c->stash_end = &s->next;
}

void consume_stash(struct consumer *c)
{
	c->stashing = true;
	c->stash = NULL;
	c->stash_end = &c->stash;
}

static void stash_free(struct consumer *c)
{
	while (c->stash) {
		struct stashed *s = c->stash;

		c->stash = s->next;
		free(s);
	}
	c->stash_end = &c->stash;
}

void consume_unstash(struct consumer *c)
{
	c->stashing = false;
	for (struct stashed *s = c->stash; s; s = s->next)
		process_record(c, s->cpu, s->rec, s->size, false);
	stash_free(c);
	fflush(c->out);
}

/* a committed speculative record, or a held one released */
static void replay(void *ctx, int cpu, const void *rec, uint32_t size)
{
	process_record(ctx, cpu, rec, size, true);
}

static void release(void *ctx, int cpu, const void *rec, uint32_t size)
{
	process_record(ctx, cpu, rec, size, false);
}

/* A record's own size: the perf sample that carries it is padded. */
static uint32_t record_size(const struct consumer *c, const void *rec,
			    uint32_t size)
{
	uint32_t epid;

	if (size < REC_HDR)
		return size;
	memcpy(&epid, rec, 4);
	if (epid == EPID_ERROR && size >= sizeof(struct err_record))
		return sizeof(struct err_record);
	if (epid < (uint32_t)c->sp->nepids && c->sp->epids[epid].size <= size)
		return c->sp->epids[epid].size;
	return size;
}

/* The timestamp of the firing a record keeps for -x record (its
 * ACT_RECORD ran), else 0: what bufpolicy's maxage goes by. */
static uint64_t recorded_time(const struct consumer *c, const void *rec,
			      uint32_t size)
{
	const struct spec_epid *ep;
	uint32_t epid;
	uint64_t ts = 0;

	if (!c->ctf || size < REC_HDR)
		return 0;
	memcpy(&epid, rec, 4);
	if (epid >= (uint32_t)c->sp->nepids)
		return 0;
	ep = &c->sp->epids[epid];
	for (int i = 0; i < ep->nacts; i++) {
		const struct spec_action *act = &ep->acts[i];

		if (act->kind == ACT_RECORD && ran(act, rec, size) &&
		    act->fields[RF_TIMESTAMP].off + 8 <= size)
			memcpy(&ts, (const unsigned char *)rec +
				    act->fields[RF_TIMESTAMP].off, 8);
	}
	return ts;
}

/* A record into bufpolicy's store. */
static void hold(struct consumer *c, int cpu, const void *rec, uint32_t size)
{
	uint32_t own = record_size(c, rec, size);

	bufpolicy_add(&c->held, cpu, rec, own, recorded_time(c, rec, own));
}

/*
 * A perf ring event: a record from a program, or PERF_RECORD_LOST.  The
 * records a ring lost are not reported from the latter: each was a
 * bpf_perf_event_output that failed, which the program counted in
 * MAP_DROPS, and consume_buf_drops() reports those -- once.
 */
static enum bpf_perf_event_ret on_event(void *ctx, int cpu,
					struct perf_event_header *ev)
{
	if (ev->type == PERF_RECORD_SAMPLE) {
		struct {
			struct perf_event_header hdr;
			uint32_t size;
			char data[];
		} *s = (void *)ev;

		struct consumer *c = ctx;

		if (c->holding)
			hold(c, cpu, s->data, s->size);
		else
			on_record(ctx, cpu, s->data, s->size);
	}
	return LIBBPF_PERF_EVENT_CONT;
}

/*
 * The consumer's epoll set: each CPU's perf ring (woken a sixteenth full)
 * and the MAP_WAKE ring buffer, read with the sleepable programs' ring
 * (spec.sbuf_map) where there is one: libbpf polls both through one fd.  exit() wakes the consumer at once: it
 * writes a word to MAP_WAKE with BPF_RB_FORCE_WAKEUP.  The word says
 * nothing the global state does not: the session looks at that on every
 * wakeup.
 *
 * The perf rings go into this set themselves, not through libbpf's own
 * epoll fd nested in it: a perf event's poll hands out its "woken" state
 * once (perf_poll exchanges it for 0), so the outer epoll's check of the
 * nested fd consumed it and the inner wait then found no ring ready -- a
 * ring was read only at the next switch, and a fast producer filled it
 * first.  Each entry's data is the ring's index; WAKE_IDX is MAP_WAKE.
 */
#define WAKE_IDX UINT32_MAX

static int wake_seen(void *ctx, void *data, size_t size)
{
	(void)ctx, (void)data, (void)size;
	return 0;
}

/*
 * A record from a sleepable program (cg.c), which writes to a ring
 * buffer rather than a CPU's perf ring, after a struct sbuf_hdr saying
 * which CPU it ran on.  Its records join the others as that CPU's.
 */
static int on_sbuf(void *ctx, void *data, size_t size)
{
	struct consumer *c = ctx;
	struct sbuf_hdr h;

	if (size < sizeof(h))
		return 0;
	memcpy(&h, data, sizeof(h));
	data = (char *)data + sizeof(h);
	size -= sizeof(h);
	if (c->holding)
		hold(c, (int)h.cpu, data, (uint32_t)size);
	else
		on_record(ctx, (int)h.cpu, data, (uint32_t)size);
	return 0;
}

static int watch(struct consumer *c, int fd, uint32_t idx)
{
	struct epoll_event ev = { .events = EPOLLIN, .data.u32 = idx };

	return epoll_ctl(c->epfd, EPOLL_CTL_ADD, fd, &ev);
}

static int open_wake(struct consumer *c)
{
	size_t n = perf_buffer__buffer_cnt(c->pb);
	int rc = 0;

	c->wake = ring_buffer__new(c->sp->maps[MAP_WAKE].fd, wake_seen, c, NULL);
	c->epfd = epoll_create1(EPOLL_CLOEXEC);
	if (c->wake && c->sp->sbuf_map >= 0 &&	/* read with MAP_WAKE */
	    ring_buffer__add(c->wake, c->sp->maps[c->sp->sbuf_map].fd, on_sbuf, c) < 0)
		rc = -errno;
	if (rc == 0 && (!c->wake || c->epfd < 0 ||
	    watch(c, ring_buffer__epoll_fd(c->wake), WAKE_IDX) < 0))
		rc = -errno;
	for (size_t i = 0; rc == 0 && i < n; i++)
		if (watch(c, perf_buffer__buffer_fd(c->pb, i), (uint32_t)i) < 0)
			rc = -errno;
	if (rc < 0)
		fprintf(c->err, "%s: could not watch the principal buffers: %s\n",
			c->progname, strerror(-rc));
	return rc;
}

/*
 * The perf rings, one per CPU online (libbpf's perf_buffer skips the
 * others), ring i the i-th CPU online as sysfs says just before.
 */
static struct perf_buffer *open_rings(struct consumer *c)
{
	size_t pages = c->pages;
	/*
	 * Wake the consumer when a ring is a sixteenth full (a page at
	 * least), not on every record: a wakeup per record costs the traced
	 * thread microseconds, one per 256 KiB of a 4 MiB ring costs nothing
	 * measurable, and leaves fifteen sixteenths of the ring for the
	 * records that arrive before the consumer runs -- on a busy machine,
	 * tens of milliseconds.  The session reads every ring to its end at
	 * least every switchrate (consume_read), so no record waits longer
	 * than that.  The enabled time tells a ring whose CPU went away.
	 */
	struct perf_event_attr attr = {
		.type = PERF_TYPE_SOFTWARE,
		.size = sizeof(attr),
		.config = PERF_COUNT_SW_BPF_OUTPUT,
		.sample_type = PERF_SAMPLE_RAW,
		.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED,
		.sample_period = 1,
		.watermark = 1,
		.wakeup_watermark = (uint32_t)(pages > 16 ? pages * 4096 / 16 : 4096),
	};
	int k = 0;

	for (int cpu = 0; cpu < c->ncpus; cpu++)
		if (attach_cpu_online(cpu))
			c->ring_cpu[k++] = cpu;
	return perf_buffer__new_raw(c->sp->maps[MAP_BUF].fd, pages, &attr,
				    on_event, c, NULL);
}

/* Has the event of fd stood still since *last (updated)? */
static bool event_stalled(int fd, uint64_t *last)
{
	uint64_t r[2];	/* value, time enabled */
	bool stalled;

	if (read(fd, r, sizeof(r)) != (ssize_t)sizeof(r))
		return false;
	stalled = r[1] == *last;
	*last = r[1];
	return stalled;
}

int consume_revive(struct consumer *c)
{
	size_t n = c->pb ? perf_buffer__buffer_cnt(c->pb) : 0, online = 0;
	bool dead = false;
	struct perf_buffer *old = c->pb;
	int rc = 0;

	for (int cpu = 0; cpu < c->ncpus; cpu++)
		online += attach_cpu_online(cpu);
	for (size_t i = 0; i < n; i++)
		if (event_stalled(perf_buffer__buffer_fd(c->pb, i), &c->ring_enabled[i]) &&
		    attach_cpu_online(c->ring_cpu[i]))
			dead = true;
	if (!old || (!dead && online <= n))
		return 0;
	/* the new rings take the map's slots; what the old ones hold is
	 * read, after a pause for a write under way to land; their close
	 * empties the slots, which are filled again */
	if (!(c->pb = open_rings(c))) {
		rc = -errno;
		c->pb = old;
		return rc;
	}
	perf_buffer__consume(old);
	usleep(10000);
	perf_buffer__consume(old);
	perf_buffer__free(old);
	n = perf_buffer__buffer_cnt(c->pb);
	memset(c->ring_enabled, 0, (size_t)c->ncpus * sizeof(*c->ring_enabled));
	for (size_t i = 0; i < n && rc == 0; i++) {
		int fd = perf_buffer__buffer_fd(c->pb, i);

		if (bpf_map_update_elem(c->sp->maps[MAP_BUF].fd, &c->ring_cpu[i], &fd,
					BPF_ANY) < 0 || watch(c, fd, (uint32_t)i) < 0)
			rc = -errno;
	}
	if (rc < 0)
		fprintf(c->err, "%s: could not open the principal buffers again: %s\n",
			c->progname, strerror(-rc));
	return rc;
}

/*
 * Whether the kernel lets this process open the buffers' perf events,
 * tried with one before libbpf opens them all: where it refuses, one
 * sentence says why rather than libbpf's line for each CPU.  Debian's
 * kernels add kernel.perf_event_paranoid=3, their default, which keeps
 * perf events from any process without CAP_SYS_ADMIN (CAP_PERFMON is not
 * enough there, as it is at 2 and below).
 */
static int perf_events_allowed(struct consumer *c)
{
	struct perf_event_attr attr = {
		.type = PERF_TYPE_SOFTWARE, .size = sizeof(attr),
		.config = PERF_COUNT_SW_BPF_OUTPUT,
		.sample_type = PERF_SAMPLE_RAW,
	};
	int fd = (int)syscall(SYS_perf_event_open, &attr, -1, 0, -1,
			      PERF_FLAG_FD_CLOEXEC);
	int paranoid = 0;
	FILE *f;

	if (fd >= 0) {
		close(fd);
		return 0;
	}
	if (errno != EACCES && errno != EPERM)
		return 0;	/* libbpf says what it is */
	if ((f = fopen("/proc/sys/kernel/perf_event_paranoid", "re"))) {
		if (fscanf(f, "%d", &paranoid) != 1)
			paranoid = 0;
		fclose(f);
	}
	if (paranoid > 2)
		fprintf(c->err, "%s: the kernel refuses perf events to this "
			"process: kernel.perf_event_paranoid is %d, which allows "
			"them to root or CAP_SYS_ADMIN only (at 2, CAP_PERFMON "
			"is enough)\n", c->progname, paranoid);
	else
		fprintf(c->err, "%s: the kernel refuses perf events to this "
			"process: they need root, or the CAP_PERFMON "
			"capability\n", c->progname);
	return -EACCES;
}

int consume_open(struct consumer *c)
{
	/* bufsize is per CPU; a perf ring is a power of two of pages */
	size_t pages = 1;
	int rc;

	while (pages * 4096 < c->opts->bufsize && pages < 4096)
		pages <<= 1;
	/* ring keeps the newest records in user space, so its bufsize says
	 * how much is kept, not how fast it may come: the perf ring is the
	 * default's (a flight recorder's small ring must not lose a burst
	 * on the way) */
	if (c->opts->bufpolicy == BUFPOLICY_RING)
		while (pages * 4096 < OPTIONS_BUFSIZE_DEFAULT && pages < 4096)
			pages <<= 1;
	c->pages = pages;
	c->orig_out = c->out;
	c->ncpus = libbpf_num_possible_cpus();
	c->dropped = calloc((size_t)c->ncpus, sizeof(*c->dropped));
	c->flow = calloc((size_t)c->ncpus, sizeof(*c->flow));
	c->ring_cpu = calloc((size_t)c->ncpus, sizeof(*c->ring_cpu));
	c->ring_enabled = calloc((size_t)c->ncpus, sizeof(*c->ring_enabled));
	if (!c->dropped || !c->flow || !c->ring_cpu || !c->ring_enabled)
		return -ENOMEM;
	rc = agg_state_init(&c->aggs, c->sp);
	if (rc < 0)
		return rc;
	c->aggs.syms = syms(c);
	c->em = emit_new(c->opts->oformat, &c->out, c->err, c->progname,
			 syms(c));
	if (!c->em && c->opts->oformat != OFORMAT_TEXT)
		return -ENOMEM;
	c->holding = c->opts->bufpolicy != BUFPOLICY_SWITCH;
	if (c->holding &&
	    (rc = bufpolicy_init(&c->held, c->opts->bufpolicy, c->opts->bufsize,
				 bufpolicy_end_room(c->sp), c->ncpus)) < 0)
		return rc;
	if ((rc = perf_events_allowed(c)) < 0)
		return rc;
	c->pb = open_rings(c);
	if (!c->pb) {
		rc = -errno;
		fprintf(c->err, "%s: could not open the principal buffers: %s\n",
			c->progname, strerror(-rc));
		return rc;
	}
	return open_wake(c);
}

int consume_wait(struct consumer *c, int timeout_ms)
{
	struct epoll_event ev[64];
	int n, rc = 0;

	if (c->lock)	/* the HTTP thread may snapshot meanwhile */
		pthread_mutex_unlock(c->lock);
	n = epoll_wait(c->epfd, ev, sizeof(ev) / sizeof(ev[0]), timeout_ms);
	int e = errno;

	if (c->lock)
		pthread_mutex_lock(c->lock);
	if (n < 0 && e != EINTR)
		rc = -e;
	for (int i = 0; i < n && rc >= 0; i++)	/* the rings that woke */
		if (ev[i].data.u32 == WAKE_IDX)
			ring_buffer__consume(c->wake);
		else
			rc = perf_buffer__consume_buffer(c->pb, ev[i].data.u32);
	fflush(c->out);
	return rc < 0 && rc != -EINTR ? rc : 0;
}

int consume_read(struct consumer *c)
{
	int rc = perf_buffer__consume(c->pb);	/* below the watermark too */

	if (rc >= 0 && c->sp->sbuf_map >= 0)
		rc = ring_buffer__consume(c->wake);

	specbuf_tick(&c->specs);
	fflush(c->out);
	return rc < 0 ? rc : 0;
}

int consume_poll(struct consumer *c, int timeout_ms)
{
	int rc = consume_wait(c, timeout_ms);

	return rc < 0 ? rc : consume_read(c);
}

void consume_release(struct consumer *c)
{
	if (!c->holding)
		return;
	c->holding = false;
	bufpolicy_drain(&c->held, release, c);
	fflush(c->out);
}

/* bufpolicy=ring, a snapshot: carry out what the ring holds now (to the
 * trace, under -x record) and go on keeping the newest records. */
void consume_flush_ring(struct consumer *c)
{
	if (!c->holding || c->opts->bufpolicy != BUFPOLICY_RING)
		return;
	bufpolicy_drain(&c->held, release, c);
	fflush(c->out);
}

/* what is the text's word for the kind of drop, kind the JSON's */
static void report(struct consumer *c, uint64_t now, uint64_t *seen,
		   const char *what, const char *kind, int cpu)
{
	if (now <= *seen)
		return;
	fflush(c->out);
	fprintf(c->err, "%s: %llu %sdrop%s on CPU %d\n", c->progname,
		(unsigned long long)(now - *seen), what,
		now - *seen == 1 ? "" : "s", cpu);
	if (c->em)
		c->em->ops->drop(c->em, kind, cpu, now - *seen);
	*seen = now;
}

/* Speculation losses, for all CPUs together, in DTrace's words. */
static void report_spec(struct consumer *c, const struct drop_counts *now)
{
	uint64_t unavail = 0;

	for (int cpu = 0; cpu < c->ncpus; cpu++)
		unavail += now[cpu].specunavail;
	fflush(c->out);
	if (unavail > c->specunavail)
		fprintf(c->err, "%s: %llu failed speculation%s (no speculative "
			"buffer available)\n", c->progname,
			(unsigned long long)(unavail - c->specunavail),
			unavail - c->specunavail == 1 ? "" : "s");
	if (unavail > c->specunavail && c->em)
		c->em->ops->drop(c->em, "speculation", -1,
				 unavail - c->specunavail);
	c->specunavail = unavail;
	if (c->specs.drops)
		fprintf(c->err, "%s: %llu speculative drop%s\n", c->progname,
			(unsigned long long)c->specs.drops,
			c->specs.drops == 1 ? "" : "s");
	if (c->specs.drops && c->em)
		c->em->ops->drop(c->em, "speculative", -1, c->specs.drops);
	c->specs.drops = 0;
}

/* MAP_DROPS, per CPU: a calloc'd array the caller frees, or NULL */
static struct drop_counts *drops_now(struct consumer *c)
{
	struct drop_counts *now = calloc((size_t)c->ncpus, sizeof(*now));
	uint32_t zero = 0;

	if (now && bpf_map_lookup_elem(c->sp->maps[MAP_DROPS].fd, &zero, now)) {
		free(now);
		return NULL;
	}
	return now;
}

bool consume_filled(struct consumer *c)
{
	struct drop_counts *now;

	if (!c->holding || c->opts->bufpolicy != BUFPOLICY_FILL)
		return false;
	if (!c->held.filled && (now = drops_now(c))) {
		for (int cpu = 0; cpu < c->ncpus; cpu++)
			if (now[cpu].fill_refused)
				c->held.filled = true;
		free(now);
	}
	return c->held.filled;
}

void consume_buf_drops(struct consumer *c)
{
	struct drop_counts *now = drops_now(c);

	for (int cpu = 0; now && cpu < c->ncpus; cpu++) {
		uint64_t held = c->held.cpus ? c->held.cpus[cpu].drops : 0;

		report(c, now[cpu].buf + held, &c->dropped[cpu].buf, "",
		       "principal", cpu);
	}
	free(now);
}

void consume_status_drops(struct consumer *c)
{
	struct drop_counts *now = drops_now(c);

	for (int cpu = 0; now && cpu < c->ncpus; cpu++) {
		report(c, now[cpu].dynvar, &c->dropped[cpu].dynvar,
		       "dynamic variable ", "dynamic variable", cpu);
		/* firings that interrupted SCRATCH_LEVELS others (spec.h) */
		report(c, now[cpu].nested, &c->dropped[cpu].nested,
		       "nested-probe ", "nested", cpu);
	}
	if (now)
		report_spec(c, now);
	free(now);
	if (c->dblerrors > c->dblerrors_seen) {
		uint64_t n = c->dblerrors - c->dblerrors_seen;

		fflush(c->out);
		fprintf(c->err, "%s: %llu error%s in ERROR probe enabling\n",
			c->progname, (unsigned long long)n, n == 1 ? "" : "s");
		if (c->em)
			c->em->ops->drop(c->em, "error probe", -1, n);
		c->dblerrors_seen = c->dblerrors;
	}
}

void consume_agg_drops(struct consumer *c)
{
	struct drop_counts *now = drops_now(c);

	for (int cpu = 0; now && cpu < c->ncpus; cpu++)
		report(c, now[cpu].agg, &c->dropped[cpu].agg, "aggregation ",
		       "aggregation", cpu);
	free(now);
}

void consume_drops(struct consumer *c)
{
	consume_buf_drops(c);
	consume_agg_drops(c);
	consume_status_drops(c);
}

void consume_final_aggs(struct consumer *c)
{
	struct arena a = { 0 };
	struct agg_data *data = calloc((size_t)c->sp->naggs + 1, sizeof(*data));
	struct agg_sort_opts so = sort_opts(c);
	int n = 0;

	if (!data)
		return;
	for (int i = 0; i < c->sp->naggs; i++)
		if (!c->aggs.printed[i])
			agg_snapshot(&c->aggs, i, &a, &data[n++]);
	if (c->em) {
		c->em->syms = syms(c);
		c->em->sort = so;
		c->em->ops->aggs(c->em, NULL, data, n);
		c->em->ops->finish(c->em);
	} else {
		fputc('\n', c->out);	/* dtrace(1) always ends with one */
		agg_print_all(c->out, data, n, &so, syms(c));
	}
	fflush(c->out);
	free(data);
	arena_free(&a);
}

uint64_t *consume_lost(const struct consumer *c)
{
	uint64_t *lost = calloc((size_t)c->ncpus, sizeof(*lost));

	for (int cpu = 0; lost && c->dropped && cpu < c->ncpus; cpu++)
		lost[cpu] = c->dropped[cpu].buf;
	return lost;
}

void consume_close(struct consumer *c)
{
	perf_buffer__free(c->pb);
	c->pb = NULL;
	ring_buffer__free(c->wake);
	c->wake = NULL;
	if (c->epfd > 0)
		close(c->epfd);
	c->epfd = -1;
	agg_state_fini(&c->aggs);
	specbuf_fini(&c->specs);
	bufpolicy_fini(&c->held);
	c->stashing = false;
	stash_free(c);
	if (c->em)
		c->em->ops->free(c->em);
	c->em = NULL;
	free(c->dropped);
	free(c->flow);
	free(c->ring_cpu);
	free(c->ring_enabled);
	c->ring_cpu = NULL;
	c->ring_enabled = NULL;
	c->dropped = NULL;
}
