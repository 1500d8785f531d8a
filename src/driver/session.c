/*
 * session.c -- the libdscope session: the public API of dscope.h over the
 * pipeline stages (compile, load, attach, consume).
 *
 * State moves one way: programs added -> compiled -> going -> stopped.
 * Each step checks it is called in order, so a caller cannot attach an
 * uncompiled program or print aggregations that were never loaded.
 *
 * While tracing, three of DTrace's rates pace the consumer (dscope__poll):
 *
 *   switchrate  the principal buffers are read to their end (records
 *               carried out, principal buffer drops reported) at least
 *               this often; a CPU's ring a sixteenth full is read at once
 *               besides, so a slow switchrate does not itself cost drops.
 *   statusrate  a full buffer under bufpolicy=fill is noticed, and
 *               dynamic variable and speculation drops reported, this
 *               often.  exit() is not left to it: DTrace ends the run at
 *               the first status check after exit(), up to a second
 *               later, but here exit() wakes the consumer itself (a
 *               word in the MAP_WAKE ring, consume.c) and every wakeup
 *               looks at the state, so a one-liner that exits is done at
 *               once.
 *   aggrate     aggregation drops are reported this often.  That is all
 *               aggrate has to pace here: aggregations stay in the
 *               kernel's per-CPU maps and are read only when printed
 *               (printa(), the end of the run), never copied on a timer.
 *
 * A rate of 0 means "at every wakeup": the wait is then bounded by the
 * other rates, and by the caller's timeout.
 *
 * And one of dscope's own: ustack()'s unwind tables for the processes
 * its programs asked for are built UNWIND_RATE_NS after at most
 * (rt/unwind.h); until then their stacks follow frame pointers in part,
 * so the wait is short, and an empty look costs one system call.
 *
 * And the symbol caches let go of what processes gone held (usym_sweep)
 * every SWEEP_RATE_NS, at the wakeup that follows: no wakeup of its own.
 *
 * And with option zone, the groups of containers that match it are
 * looked for every ZONE_RATE_NS (rt/container.h), so a container started
 * while tracing is traced from then on.
 *
 * And the overhead budget (rt/budget.h) samples what the probes cost
 * over the end of each BUDGET_WINDOW_NS, and ends a run that spent too
 * much.
 *
 * With -x metrics, an HTTP thread (rt/metrics.h) snapshots the
 * aggregations from when the probes are attached until dscope__stop;
 * the session's lock keeps it and the consumer apart.
 */
#include "dscope.h"

#include <bpf/bpf.h>
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/statvfs.h>
#include <time.h>
#include <wordexp.h>

#include "driver/compile.h"
#include "cg/sdtgen.h"
#include "d/funcs.h"
#include "front/parse.h"
#include "prov/catalog.h"
#include "prov/derived.h"
#include "rt/attach.h"
#include "rt/budget.h"
#include "rt/consume.h"
#include "rt/container.h"
#include "rt/ctf.h"
#include "rt/procstop.h"
#include "rt/replay.h"
#include "rt/disasm.h"
#include "kern/kcaps.h"
#include "kern/lockdown.h"
#include "rt/load.h"
#include "rt/metrics.h"
#include "spec/options.h"
#include "rt/unwind.h"
#include "obj/usym.h"

enum state { S_NEW, S_COMPILED, S_GOING, S_STOPPED };

/* -x replay: events run between two reads of the principal buffers --
 * few enough that their records fit in a CPU's ring */
#define REPLAY_BATCH 1024

struct dscope {
	struct dscope_config cfg;
	struct options opts;
	struct arena arena;		/* the compile's; lives with the session */
	struct catalog *cat;
	struct compile_source *src;
	int nsrc, src_cap;
	int argc;
	char **argv;
	long target;
	char *target_exec;		/* -c: the command's executable */
	struct unwind_tables *uw;	/* ustack()'s tables; NULL: none */
	struct spec *spec;
	struct attach_set links;
	struct consumer cons;
	enum state state;
	uint64_t next_switch;		/* CLOCK_MONOTONIC ns: when each is due */
	uint64_t next_unwind;		/* ustack()'s tables asked for are built */
	uint64_t next_status;
	uint64_t next_agg;
	uint64_t next_zone;		/* option zone: new groups looked for */
	uint64_t next_sweep;		/* the symbol caches let go */
	int zone_fd;			/* option zone's map; -1: no filter */
	bool ending;			/* a status check saw exit() or a fill */
	bool fill_said;			/* the fill notice has been printed */
	int out_errno;			/* a write of the output failed: its
					 * errno, said once; 0: none did */
	struct budget budget;		/* the probes' cost (rt/budget.h) */
	uint64_t next_budget;		/* the end of the budget's window */
	bool killed;			/* over budget: stopped without END */
	struct metrics *metrics;	/* -x metrics: the HTTP server */
	pthread_mutex_t lock;		/* consumer vs. HTTP thread (metrics.h) */
	struct ctf_trace trace;		/* -x replay: the trace read */
	struct replay replay;		/* and where its run is */
	bool replaying;
};

struct dscope *dscope__new(const struct dscope_config *cfg)
{
	struct dscope *ds = calloc(1, sizeof(*ds));

	if (!ds)
		return NULL;
	ds->cfg = *cfg;
	ds->zone_fd = -1;
	ds->budget.stats_fd = -1;
	pthread_mutex_init(&ds->lock, NULL);
	if (!ds->cfg.progname)
		ds->cfg.progname = "dscope";
	if (!ds->cfg.out)
		ds->cfg.out = stdout;
	if (!ds->cfg.err)
		ds->cfg.err = stderr;
	options_init(&ds->opts);
	return ds;
}

void dscope__free(struct dscope *ds)
{
	if (!ds)
		return;
	metrics__free(ds->metrics);
	if (ds->state == S_GOING)
		detach_all(&ds->links);
	budget_end(&ds->budget);
	if (ds->cons.pb)
		consume_close(&ds->cons);
	if (ds->cons.ctf)
		ctf_writer__free(ds->cons.ctf, NULL);
	replay_close(&ds->replay);
	ctf_trace_free(&ds->trace);
	if (ds->spec)
		unload_spec(ds->spec);
	unwind_tables_free(ds->uw);
	catalog__free(ds->cat);
	arena_free(&ds->arena);
	pthread_mutex_destroy(&ds->lock);
	free(ds);
}

int dscope__setopt(struct dscope *ds, const char *name, const char *value)
{
	char err[128];

	if (options_set(&ds->opts, name, value, err, sizeof(err)) == 0)
		return 0;
	fprintf(ds->cfg.err, "%s: failed to set -x %s: %s\n", ds->cfg.progname,
		name, err);
	return -EINVAL;
}

void dscope__set_args(struct dscope *ds, int argc, char **argv)
{
	ds->argc = argc;
	ds->argv = argv;
}

void dscope__set_target(struct dscope *ds, long pid)
{
	ds->target = pid;
}

/* The interpreter a "#!" file names (its first word), or NULL if path is
 * not such a file. */
static char *interpreter_of(struct arena *a, const char *path)
{
	char head[256], *p, *end;
	FILE *f = fopen(path, "r");
	size_t n = f ? fread(head, 1, sizeof(head) - 1, f) : 0;

	if (f)
		fclose(f);
	head[n] = '\0';
	if (n < 3 || strncmp(head, "#!", 2) != 0)
		return NULL;
	p = head + 2 + strspn(head + 2, " \t");
	end = p + strcspn(p, " \t\r\n");
	if (end == p)
		return NULL;
	*end = '\0';
	return arena_strdup(a, p);
}

/*
 * The -c command's executable, whose probes pid$target names before it
 * runs: the program the kernel runs for it -- for a "#!" script its
 * interpreter (the kernel follows up to four such files, binfmt_script),
 * as DTrace traces the interpreter of `dtrace -c ./script.sh`.
 */
void dscope__set_target_command(struct dscope *ds, const char *cmd)
{
	wordexp_t w;

	if (wordexp(cmd, &w, WRDE_NOCMD) != 0)
		return;
	if (w.we_wordc > 0) {
		char *exe = arena_strdup(&ds->arena, w.we_wordv[0]), *interp;

		for (int depth = 0; depth < 4 &&
		     (interp = interpreter_of(&ds->arena, exe)); depth++)
			exe = interp;
		ds->target_exec = exe;
	}
	wordfree(&w);
}

int dscope__add_program(struct dscope *ds, const char *text,
			const char *filename)
{
	struct compile_source *s = ARENA_PUSH(&ds->arena, ds->src, ds->nsrc,
					      ds->src_cap);

	s->text = arena_strdup(&ds->arena, text);
	s->filename = filename ? arena_strdup(&ds->arena, filename) : NULL;
	s->probe_only = filename == NULL;
	return 0;
}

static struct catalog *catalog(struct dscope *ds)
{
	if (!ds->cat) {
		ds->cat = catalog__new();
		if (ds->target_exec)
			catalog__set_target_exec(ds->cat, ds->target, ds->target_exec);
	}
	return ds->cat;
}

static void compile_error(struct dscope *ds, const struct compile_source *s,
			  const struct diag *d)
{
	char tag[64] = "", line[32] = "";

	if (ds->opts.errtags && d->tag)
		snprintf(tag, sizeof(tag), "[%s] ", d->tag);
	if (s->filename && d->line > 0)
		snprintf(line, sizeof(line), "line %d: ", d->line);
	if (s->filename)
		fprintf(ds->cfg.err, "%s: failed to compile script %s: %s%s%s\n",
			ds->cfg.progname, s->filename, tag, line, d->msg);
	else
		fprintf(ds->cfg.err, "%s: invalid probe specifier %s: %s%s\n",
			ds->cfg.progname, s->text, tag, d->msg);
}

static void matched_notice(struct dscope *ds, const int *nprobes)
{
	if (ds->opts.quiet)
		return;
	for (int i = 0; i < ds->nsrc; i++) {
		const struct compile_source *s = &ds->src[i];
		int n = nprobes[i];

		fprintf(ds->cfg.err, "%s: %s '%s' matched %d probe%s\n",
			ds->cfg.progname, s->filename ? "script" : "description",
			s->filename ? s->filename : s->text, n, n == 1 ? "" : "s");
	}
}

/* -x replay: the trace, whose probes are all the script may match. */
static int read_trace(struct dscope *ds, struct compile_args *args)
{
	const char *pn = ds->cfg.progname;

	if (ds->opts.record[0]) {
		fprintf(ds->cfg.err, "%s: record and replay cannot be used "
			"together\n", pn);
		return -EINVAL;
	}
	if (ctf_trace_read(ds->opts.replay, &ds->trace, ds->cfg.err, pn) < 0)
		return -EINVAL;
	/* never NULL (that is a live run): a trace of no probe matches none */
	static const char *const none[1];

	args->recorded = ds->trace.nenabled ? (const char *const *)ds->trace.enabled
					    : none;
	args->nrecorded = ds->trace.nenabled;
	args->replay_dir = ds->opts.replay;
	ds->replaying = true;
	if (!ds->trace.complete)
		fprintf(ds->cfg.err, "%s: %s was cut short (its recorder did not "
			"finish): replaying the %zu events before the cut\n", pn,
			ds->opts.replay, ds->trace.nevents);
	if (ds->trace.discarded)
		fprintf(ds->cfg.err, "%s: %s lost %llu events as it was recorded\n",
			pn, ds->opts.replay, (unsigned long long)ds->trace.discarded);
	return 0;
}

int dscope__compile(struct dscope *ds)
{
	struct compile_args args = { .argc = ds->argc, .argv = ds->argv,
				     .target_pid = ds->target };
	struct compile_result res;
	struct diag d = { 0 };
	int rc;

	if (ds->state != S_NEW)
		return -EINVAL;
	if (ds->opts.replay[0] && (rc = read_trace(ds, &args)) < 0)
		return rc;
	if (compile_sources(&ds->arena, catalog(ds), ds->src, ds->nsrc, &args,
			    &ds->opts, &res, &d) < 0) {
		compile_error(ds, &ds->src[res.source], &d);
		return -EINVAL;
	}
	ds->spec = res.spec;
	ds->state = S_COMPILED;
	if (ds->opts.disasm)
		disasm_spec(ds->cfg.err, ds->spec);
	matched_notice(ds, res.nprobes);
	/* nothing to trace is an error unless -Z allows it, as dtrace(1)
	 * says once everything has compiled: an empty program (-xempty) or
	 * declarations alone */
	int total = 0;

	for (int i = 0; i < ds->nsrc; i++)
		total += res.nprobes[i];
	if (total == 0 && !ds->opts.zdefs) {
		fprintf(ds->cfg.err, "%s: no probes matched\n", ds->cfg.progname);
		return -ENOENT;
	}
	return 0;
}

void dscope__print_caps(FILE *out)
{
	kcaps_print(out);
	derived_print(out);
	lockdown_print(out);
	dfunc_list(out);
	options_list(out);
}

int dscope__list(struct dscope *ds, bool verbose)
{
	struct catalog *cat = catalog(ds);
	int total = 0, unmatched = 0;

	catalog__list_header(ds->cfg.out);
	if (ds->nsrc == 0)
		return catalog__list(cat, ds->cfg.out, NULL, verbose) >= 0 ? 0 : -1;
	for (int i = 0; i < ds->nsrc; i++) {
		struct parse_opts po = { .filename = ds->src[i].filename,
					 .argc = ds->argc, .argv = ds->argv,
					 .target_pid = ds->target,
					 .probe_only = true };
		struct diag d = { 0 };
		struct program *p = parse_program(&ds->arena, ds->src[i].text,
						  &po, &d);

		if (!p) {
			compile_error(ds, &ds->src[i], &d);
			return -EINVAL;
		}
		for (int c = 0; c < p->nclauses; c++)
			for (int k = 0; k < p->clauses[c]->ndescs; k++) {
				const struct probe_desc *pd = p->clauses[c]->descs[k];
				int n = catalog__list(cat, ds->cfg.out, pd, verbose);
				const char *hint = catalog__hint(cat);

				if (n > 0) {
					total += n;
					continue;
				}
				fprintf(ds->cfg.err, "%s: failed to match %s:%s:%s:%s: "
					"No probe matches description%s%s\n",
					ds->cfg.progname, pd->prov, pd->mod, pd->func,
					pd->name, hint ? ": " : "", hint ? hint : "");
				unmatched++;
			}
	}
	return unmatched ? -ENOENT : 0;
}

/* -h, -G: every source parsed and its provider definitions gathered;
 * what names the file being made, for the messages. */
static int gather_providers(struct dscope *ds, struct sdt_set *set,
			    const char *what)
{
	if (ds->state != S_NEW)
		return -EINVAL;
	set->a = &ds->arena;
	for (int i = 0; i < ds->nsrc; i++) {
		const struct compile_source *s = &ds->src[i];
		struct parse_opts po = { .filename = s->filename,
					 .argc = ds->argc, .argv = ds->argv,
					 .probe_only = s->probe_only };
		struct diag d = { 0 };
		struct program *p = parse_program(&ds->arena, s->text, &po, &d);

		if (!p || sdtgen_add(set, p, &d) < 0) {
			compile_error(ds, s, &d);
			return -EINVAL;
		}
	}
	if (set->nproviders == 0) {
		const char *src = ds->nsrc == 1 ? ds->src[0].filename : NULL;

		fprintf(ds->cfg.err, "%s: failed to create %s: %s defines no "
			"provider\n", ds->cfg.progname, what,
			src ? src : "the program");
		return -ENOENT;
	}
	return 0;
}

int dscope__header(struct dscope *ds, FILE *out, const char *name)
{
	char *what = arena_printf(&ds->arena, "header file %s", name);
	struct sdt_set set = { 0 };
	int rc = gather_providers(ds, &set, what);

	if (rc < 0)
		return rc;
	sdtgen_header(&set, out, name);
	if (fflush(out) != 0 || ferror(out)) {
		rc = errno ? -errno : -EIO;
		fprintf(ds->cfg.err, "%s: failed to create %s: %s\n",
			ds->cfg.progname, what, strerror(errno));
	}
	return rc;
}

int dscope__link(struct dscope *ds, const char *path, int bits, int nobjs,
		 char *const *objs)
{
	char *what = arena_printf(&ds->arena, "object file %s", path);
	struct sdt_set set = { 0 };
	struct sdt_target t;
	char err[256];
	int rc = gather_providers(ds, &set, what);

	if (rc < 0)
		return rc;
	if (sdtgen_target(&t, bits, nobjs, objs, err, sizeof(err)) < 0 ||
	    sdtgen_object(&set, &t, path, err, sizeof(err)) < 0) {
		fprintf(ds->cfg.err, "%s: failed to create %s: %s\n",
			ds->cfg.progname, what, err);
		return -EINVAL;
	}
	return 0;
}

/* walltimestamp = ktime (CLOCK_MONOTONIC) + offset to CLOCK_REALTIME;
 * under fill, the room END's records are kept out of */
static int set_walltime(struct dscope *ds)
{
	struct timespec mono, real;
	struct globals_hdr hdr = { 0 };
	uint32_t zero = 0;
	size_t size = ds->spec->maps[MAP_GLOBALS].value_size;
	char *val = calloc(1, size);

	if (!val)
		return -ENOMEM;
	clock_gettime(CLOCK_REALTIME, &real);
	clock_gettime(CLOCK_MONOTONIC, &mono);
	hdr.walltime_off = (uint64_t)(real.tv_sec - mono.tv_sec) * 1000000000ull +
			   (uint64_t)(real.tv_nsec - mono.tv_nsec);
	if (ds->opts.bufpolicy == BUFPOLICY_FILL)
		hdr.fill_limit = ds->opts.bufsize - bufpolicy_end_room(ds->spec);
	memcpy(val, &hdr, sizeof(hdr));
	int rc = bpf_map_update_elem(ds->spec->maps[MAP_GLOBALS].fd, &zero, val,
				     BPF_ANY);
	free(val);
	return rc;
}

/* Probes run while the state word is 0; exit() sets it.  END must run
 * after exit() too, once everything else is detached, and under fill
 * may use the whole buffer.  Only then is the header written: while
 * probes run they own the value's global variables. */
static int set_state_for_end(struct dscope *ds)
{
	uint64_t state = STATE_STOPPED;
	uint32_t zero = 0;
	int fd = ds->spec->maps[MAP_GLOBALS].fd;
	char *val = calloc(1, ds->spec->maps[MAP_GLOBALS].value_size);
	int rc = -ENOMEM;

	if (val && (rc = bpf_map_lookup_elem(fd, &zero, val)) == 0) {
		memcpy(val + offsetof(struct globals_hdr, state), &state,
		       sizeof(state));
		if (ds->opts.bufpolicy == BUFPOLICY_FILL)
			memcpy(val + offsetof(struct globals_hdr, fill_limit),
			       &ds->opts.bufsize, sizeof(ds->opts.bufsize));
		rc = bpf_map_update_elem(fd, &zero, val, BPF_ANY);
	}
	free(val);
	return rc;
}

/*
 * A principal buffer must hold the largest record a program can write, as
 * libdtrace requires (the perf ring behind it is at least a page anyway);
 * under fill it must also keep room for END's records, as DTrace does.
 */
static int check_bufsize(struct dscope *ds)
{
	const char *why = NULL;

	if (ds->opts.bufsize < bufpolicy_largest(ds->spec))
		why = "Enabling exceeds size of buffer";
	else if (ds->opts.bufpolicy == BUFPOLICY_FILL &&
		 ds->opts.bufsize < bufpolicy_end_room(ds->spec) +
					    bufpolicy_largest(ds->spec))
		why = "END enablings exceed size of principal buffer";
	if (!why)
		return 0;
	fprintf(ds->cfg.err, "%s: could not enable tracing: %s\n",
		ds->cfg.progname, why);
	return -ENOSPC;
}

/* exit() is kept in the kernel's state too: when its record was lost to a
 * full buffer (and reported as a drop), the run still ends with its
 * status, as DTrace's does. */
static void exit_called(struct dscope *ds)
{
	size_t size = ds->spec->maps[MAP_GLOBALS].value_size;
	char *val = calloc(1, size);
	uint32_t zero = 0;
	struct globals_hdr hdr;

	if (val && bpf_map_lookup_elem(ds->spec->maps[MAP_GLOBALS].fd, &zero,
				       val) == 0) {
		memcpy(&hdr, val, sizeof(hdr));
		if (hdr.state) {
			consume_poll(&ds->cons, 0);	/* the record, if it came */
			if (!ds->cons.done)
				ds->cons.exit_status = (int)hdr.exit_status;
			ds->cons.done = true;
		}
	}
	free(val);
}

#define UNWIND_RATE_NS 100000000ull	/* 10 Hz */
#define SWEEP_RATE_NS 1000000000ull	/* 1 Hz */

/* how often option zone looks for containers started since */
#define ZONE_RATE_NS 200000000ull

/*
 * Option zone: admit the groups of the containers it names, in the map
 * every probe looks its thread's group up in (cg_zone.c).  At the start a
 * pattern that names nothing is an error, as a probe description that
 * matches nothing is, unless -Z says to wait for it.
 */
static int zone_fill(struct dscope *ds, bool first)
{
	const char *z = ds->opts.zone;
	int n;

	if (first) {
		for (int i = 0; *z && i < ds->spec->nmaps; i++)
			if (strcmp(ds->spec->maps[i].name, SPEC_ZONE_MAP) == 0)
				ds->zone_fd = ds->spec->maps[i].fd;
	}
	if (ds->zone_fd < 0)
		return 0;
	n = container_zone_fill(z, ds->zone_fd);
	if (n < 0) {
		fprintf(ds->cfg.err, "%s: could not enable tracing: option zone "
			"needs a cgroup v2 hierarchy: %s\n", ds->cfg.progname,
			strerror(-n));
		return n;
	}
	if (first && n == 0 && !ds->opts.zdefs) {
		fprintf(ds->cfg.err, "%s: failed to match zone \"%s\": no "
			"container or cgroup of that name or id exists\n",
			ds->cfg.progname, z);
		return -ENOENT;
	}
	return 0;
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* -x record: the trace, its metadata naming every probe enabled */
static int record_open(struct dscope *ds)
{
	const struct spec *sp = ds->spec;
	char **names = calloc((size_t)sp->nenabled + 1, sizeof(*names));
	int rc = -ENOMEM, i;

	for (i = 0; names && i < sp->nenabled; i++) {
		const struct probe *p = sp->enabled[i];

		size_t n = strlen(p->prov) + strlen(p->mod) + strlen(p->func) +
			   strlen(p->name) + 4;

		if (!(names[i] = malloc(n)))
			break;
		snprintf(names[i], n, "%s:%s:%s:%s", p->prov, p->mod, p->func,
			 p->name);
	}
	if (names && i == sp->nenabled)
		rc = ctf_writer__new(ds->opts.record, ds->cons.ncpus,
				     (const char *const *)names, sp->nenabled,
				     ds->cfg.err, ds->cfg.progname, &ds->cons.ctf);
	for (int k = 0; names && k < i; k++)
		free(names[k]);
	free(names);
	return rc;
}

/* What the kernel's lockdown forbids, said before loading: the verifier
 * would say only "unknown func" (kern/lockdown.h). */
static int check_lockdown(struct dscope *ds)
{
	enum lockdown m = lockdown_mode();

	for (int i = 0; m != LOCKDOWN_NONE && i < ds->spec->nprogs; i++) {
		const struct spec_prog *p = &ds->spec->progs[i];
		const char *what = lockdown_refuses(p->insns, p->ninsns, m);

		if (what) {
			fprintf(ds->cfg.err, "%s: could not enable tracing: %s, "
				"which this kernel does not allow (kernel "
				"lockdown=%s)\n", ds->cfg.progname, what,
				lockdown_name(m));
			return -EPERM;
		}
	}
	return 0;
}

/*
 * The overhead budget: at the end of each window, has what the probes
 * cost passed it?  Then tracing is over as under DTrace's deadman: the
 * probes stop (the state word, as at exit()), no END runs -- DTrace's
 * killed state runs no probe, END's included -- and the run fails.
 * Unlike dtrace(1), which exits at once, the aggregations gathered are
 * printed (dscope__stop): they are what the user came for.  The budget
 * is looked up at each window, so setopt("budget", ...) takes effect.
 */
static bool budget_passed(struct dscope *ds, uint64_t now)
{
	uint32_t limit = options_budget(&ds->opts);

	if (!ds->budget.on || now < ds->next_budget ||
	    !budget_tick(&ds->budget, now, limit, &ds->next_budget) || !limit)
		return false;
	ds->killed = true;
	return true;
}

static int over_budget(struct dscope *ds, uint64_t now)
{
	if (!budget_passed(ds, now))
		return 0;
	budget_say(&ds->budget, ds->spec, options_budget(&ds->opts), NULL,
		   ds->cfg.err, ds->cfg.progname);
	return -ECANCELED;
}

/* Between the batches of an attach storm: the budget's windows go on
 * over the probes attached so far; over it, the attach stops
 * (-ECANCELED), said once it has (dscope__go). */
static int attach_between_budget(void *arg)
{
	return budget_passed(arg, now_ns()) ? -ECANCELED : 0;
}

static int go(struct dscope *ds);

/* What must hold before anything loads: DTrace's refusals of an enabling,
 * each in one sentence */
static int check_enabling(struct dscope *ds)
{
	const char *pn = ds->cfg.progname;
	FILE *err = ds->cfg.err;
	int rc;

	if ((rc = check_bufsize(ds)) < 0)
		return rc;
	if (ds->opts.buftime_ns && (!ds->opts.record[0] ||
				    ds->opts.bufpolicy != BUFPOLICY_RING)) {
		fprintf(err, "%s: could not enable tracing: option buftime "
			"bounds a flight recorder: it needs -x record and "
			"-x bufpolicy=ring\n", pn);
		return -EINVAL;
	}
	if (ds->spec->destructive && !ds->opts.destructive) {
		fprintf(err, "%s: could not enable tracing: Destructive actions "
			     "not allowed\n", pn);
		return -EPERM;
	}
	if ((rc = check_lockdown(ds)) < 0)
		return rc;
	/* aggsize or dynvarsize too small for even one entry of a map */
	for (int i = 0; i < ds->spec->nmaps; i++)
		if (ds->spec->maps[i].max_entries == 0 &&
		    ds->spec->maps[i].type != BPF_MAP_TYPE_PERF_EVENT_ARRAY &&
		    ds->spec->maps[i].type != BPF_MAP_TYPE_TASK_STORAGE) {
			fprintf(err, "%s: could not enable tracing: Enabling "
				"exceeds size of buffer\n", pn);
			return -E2BIG;
		}
	return 0;
}

/* A signal that ends dscope, come while it loads, is held back to be
 * seen between the batches of an attach storm (attach.h), which would
 * otherwise run on to its end before the caller looks. */
int dscope__go(struct dscope *ds)
{
	sigset_t ending, old;
	int rc;

	attach_ending_signals(&ending);
	pthread_sigmask(SIG_BLOCK, &ending, &old);
	rc = go(ds);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return rc;
}

static int go(struct dscope *ds)
{
	const char *pn = ds->cfg.progname;
	FILE *err = ds->cfg.err;
	int rc;

	if (ds->state != S_COMPILED)
		return -EINVAL;
	if ((rc = check_enabling(ds)) < 0)
		return rc;
	/* the socket first: a bad address fails before anything loads */
	if ((rc = metrics__new(&ds->opts, ds->spec, err, pn, &ds->metrics)) < 0)
		return rc;
	if ((rc = unwind_prepare(ds->spec, ds->opts.ustackrows, &ds->uw)) < 0)
		return rc;
	rc = load_spec(ds->spec, err, pn);
	if (rc < 0)
		return rc;
	ds->state = S_GOING;
	if ((rc = unwind_fill(ds->spec, ds->uw, ds->target, ds->target_exec, err,
			      pn)) < 0 ||
	    (rc = attach_sysinfo(ds->spec, err, pn)) < 0 ||
	    (rc = attach_cpuinfo(ds->spec, err, pn)) < 0 ||
	    (rc = zone_fill(ds, true)) < 0 ||
	    (rc = set_walltime(ds)) < 0)
		return rc;
	ds->cons = (struct consumer){
		.sp = ds->spec, .cat = ds->cat, .opts = &ds->opts,
		.out = ds->cfg.out, .err = err, .progname = pn,
		.testing = getenv("_DTRACE_TESTING") != NULL,
		.target_pid = ds->target > 0 ? (uint32_t)ds->target : 0,
	};
	if ((rc = consume_open(&ds->cons)) < 0)
		return rc;
	if (ds->opts.record[0] && (rc = record_open(ds)) < 0)
		return rc;
	ds->cons.held.maxage = ds->opts.buftime_ns;
	if (ds->replaying && (rc = replay_open(&ds->replay, ds->spec, &ds->trace,
					       ds->cfg.err, ds->cfg.progname)) < 0)
		return rc;
	if (ds->replaying)	/* stacks print with the names recorded */
		ds->cons.replayed = &ds->trace;
	ds->next_switch = ds->next_status = ds->next_agg = ds->next_unwind =
		ds->next_zone = ds->next_sweep = now_ns();
	/* DTrace fires BEGIN once every enabling is on (dtrace_state_go),
	 * and its consumer carries out BEGIN's records after: a system()
	 * in BEGIN runs with the other probes live.  BEGIN runs first
	 * here, its records are read and kept until the rest attach. */
	consume_stash(&ds->cons);
	if ((rc = attach_run_once(ds->spec, ATTACH_BEGIN, NULL, err, pn)) < 0)
		return rc;
	consume_poll(&ds->cons, 0);
	exit_called(ds);
	/* the budget watches while the probes attach: a storm of fbt
	 * probes can cost too much before the last is on (attach.h) */
	if (!ds->cons.done && options_budget(&ds->opts) && !ds->replaying) {
		budget_start(&ds->budget, ds->spec, &ds->links,
			     ds->opts.budget_set, err, pn);
		ds->next_budget = now_ns() + BUDGET_WINDOW_NS - BUDGET_SAMPLE_NS;
		ds->links.between = attach_between_budget;
		ds->links.between_arg = ds;
	}
	if (!ds->cons.done &&
	    (rc = attach_all(ds->spec, &ds->links, err, pn)) < 0 &&
	    rc != -ECANCELED)
		return rc;
	ds->links.between = NULL;
	if (rc == -ECANCELED) {	/* the first poll stops the run */
		budget_say(&ds->budget, ds->spec, options_budget(&ds->opts),
			   ds->links.stopped, err, pn);
		consume_unstash(&ds->cons);
		return 0;
	}
	budget_more(&ds->budget, ds->spec);	/* the copies attaching made */
	consume_unstash(&ds->cons);
	if (ds->cons.done || !ds->metrics)
		return 0;	/* exit() in BEGIN: nothing else runs */
	/* served once the probes are attached: a scrape that answers
	 * counts every firing from then on */
	if ((rc = metrics__start(ds->metrics, &ds->cons.aggs, &ds->lock,
				 ds->opts.quiet)) < 0)
		return rc;
	ds->cons.metrics = ds->metrics;
	ds->cons.lock = &ds->lock;
	return 0;
}

/* Rates under a millisecond are taken as one: the consumer must not spin. */
static uint64_t pace(uint64_t rate_ns)
{
	return rate_ns && rate_ns < 1000000 ? 1000000 : rate_ns;
}

/* Is an event of this rate due at now?  If so, when is the next one? */
static bool due(uint64_t *next, uint64_t rate_ns, uint64_t now)
{
	if (now < *next)
		return false;
	*next = now + pace(rate_ns);
	return true;
}

/* How long to wait for the first event due, at most timeout_ms. */
static int wait_ms(const struct dscope *ds, int timeout_ms, uint64_t now)
{
	const struct { uint64_t next, rate; } ev[] = {
		{ ds->next_switch, ds->opts.switchrate_ns },
		{ ds->next_status, ds->opts.statusrate_ns },
		{ ds->next_agg, ds->opts.aggrate_ns },
		{ ds->next_unwind, ds->uw ? UNWIND_RATE_NS : 0 },
		{ ds->next_zone, ds->zone_fd >= 0 ? ZONE_RATE_NS : 0 },
		{ ds->next_budget, ds->budget.on ? BUDGET_SAMPLE_NS : 0 },
	};
	uint64_t ms = timeout_ms >= 0 ? (uint64_t)timeout_ms : 1000;

	for (size_t i = 0; i < sizeof(ev) / sizeof(ev[0]); i++) {
		uint64_t left = ev[i].next > now ? ev[i].next - now : 0;

		if (ev[i].rate && (left + 999999) / 1000000 < ms)
			ms = (left + 999999) / 1000000;
	}
	return (int)ms;
}

/* bufpolicy=fill: has a CPU's buffer filled?  Said once, as a notice
 * (DTrace itself stops without a word). */
static bool filled(struct dscope *ds)
{
	if (!consume_filled(&ds->cons))
		return false;
	if (!ds->fill_said && !ds->opts.quiet)
		fprintf(ds->cfg.err, "%s: principal buffer filled: tracing "
			"stopped (bufpolicy=fill)\n", ds->cfg.progname);
	ds->fill_said = true;
	return true;
}

/* A status check: is the run over (exit(), or a buffer filled)? */
static bool status_says_stop(struct dscope *ds)
{
	consume_status_drops(&ds->cons);
	if (!ds->cons.done)
		exit_called(ds);
	return ds->cons.done || filled(ds);
}

/*
 * Has a write of the output failed (a full disk under -o)?  Then tracing
 * stops, as dtrace(1)'s does: "processing aborted" with the reason, and a
 * status that is not 0.  The output is flushed here, once a poll, so
 * that the failure is seen while the probes still run rather than at
 * the end.  stdio keeps no errno: a write that failed inside an earlier
 * printf is known only by the stream's error flag, and its bytes are
 * gone.  The usual cause, a file system with no free block left, is
 * asked of the file system; any other is said as a failed write.
 */
static int output_failed(struct dscope *ds)
{
	FILE *out = ds->cons.out;
	struct statvfs fs;

	if (ds->out_errno)
		return -ds->out_errno;
	errno = 0;
	if (fflush(out) != EOF && !ferror(out))
		return 0;
	ds->out_errno = errno;
	if (!ds->out_errno && fstatvfs(fileno(out), &fs) == 0 && fs.f_bavail == 0)
		ds->out_errno = ENOSPC;
	if (ds->out_errno)
		fprintf(ds->cfg.err, "%s: processing aborted: %s\n",
			ds->cfg.progname, strerror(ds->out_errno));
	else
		fprintf(ds->cfg.err, "%s: processing aborted: a write of the "
			"output failed\n", ds->cfg.progname);
	ds->out_errno = ds->out_errno ? ds->out_errno : EIO;
	return -ds->out_errno;
}

/* -x record: what the consumer has read, written out as packets, with
 * each CPU's losses so far. */
static int record_flush(struct dscope *ds)
{
	uint64_t *lost;
	int rc;

	if (!ds->cons.ctf)
		return 0;
	lost = consume_lost(&ds->cons);
	rc = ctf_writer__flush(ds->cons.ctf, lost);
	free(lost);
	return rc;
}

static int poll_locked(struct dscope *ds, int timeout_ms)
{
	uint64_t now = now_ns();
	int rc = 0;

	if (ds->state != S_GOING)
		return -EINVAL;
	if (ds->killed)
		return -ECANCELED;	/* over budget while attaching */
	if (ds->ending)
		return 1;	/* already over: do not wait */
	if (ds->replaying) {
		rc = replay_run(&ds->replay, REPLAY_BATCH, ds->cfg.err,
				ds->cfg.progname);
		ds->ending = rc == 1;
		rc = rc < 0 ? rc : consume_read(&ds->cons);
	} else {
		rc = consume_wait(&ds->cons, wait_ms(ds, timeout_ms, now));
	}
	now = now_ns();
	if (rc == 0 && due(&ds->next_switch, ds->opts.switchrate_ns, now)) {
		rc = consume_read(&ds->cons);
		consume_buf_drops(&ds->cons);
		if (rc == 0)	/* a CPU back from offline (consume.h) */
			rc = consume_revive(&ds->cons);
		attach_revive(&ds->links);
		if (rc >= 0)
			rc = record_flush(ds);
	}
	if (rc >= 0 && ds->uw && due(&ds->next_unwind, UNWIND_RATE_NS, now))
		rc = unwind_refresh(ds->uw);
	if (due(&ds->next_sweep, SWEEP_RATE_NS, now))
		usym_sweep();
	if (due(&ds->next_agg, ds->opts.aggrate_ns, now))
		consume_agg_drops(&ds->cons);
	if (rc >= 0 && ds->zone_fd >= 0 && due(&ds->next_zone, ZONE_RATE_NS, now))
		rc = zone_fill(ds, false);
	if (due(&ds->next_status, ds->opts.statusrate_ns, now))
		ds->ending = status_says_stop(ds);
	if (!ds->ending && !ds->cons.done)
		exit_called(ds);
	ds->ending |= ds->cons.done;
	if (rc >= 0)
		rc = output_failed(ds);
	if (rc >= 0 && !ds->ending)
		rc = over_budget(ds, now);
	if (rc < 0)
		return rc;
	return ds->ending ? 1 : 0;
}

/* The consumer holds the lock but while it waits (metrics.h). */
int dscope__snapshot(struct dscope *ds)
{
	uint64_t before;
	int rc;

	if (ds->state != S_GOING || ds->opts.bufpolicy != BUFPOLICY_RING)
		return 0;	/* nothing is kept to write out */
	pthread_mutex_lock(&ds->lock);
	before = ds->cons.ctf ? ctf_writer__events(ds->cons.ctf) : 0;
	rc = consume_poll(&ds->cons, 0);	/* up to this moment */
	consume_flush_ring(&ds->cons);
	if (rc >= 0)
		rc = record_flush(ds);
	if (rc >= 0 && ds->cons.ctf)
		fprintf(ds->cfg.err, "%s: saved %llu events to %s\n",
			ds->cfg.progname,
			(unsigned long long)(ctf_writer__events(ds->cons.ctf) - before),
			ds->opts.record);
	pthread_mutex_unlock(&ds->lock);
	return rc < 0 ? rc : 0;
}

int dscope__poll(struct dscope *ds, int timeout_ms)
{
	int rc;

	pthread_mutex_lock(&ds->lock);
	rc = poll_locked(ds, timeout_ms);
	pthread_mutex_unlock(&ds->lock);
	return rc;
}

int dscope__stop(struct dscope *ds)
{
	int rc = 0, end_rc;

	if (ds->state != S_GOING)
		return -EINVAL;
	/* not serving END's changes: the thread must be gone before the
	 * aggregation state is */
	metrics__free(ds->metrics);
	ds->metrics = ds->cons.metrics = NULL;
	ds->cons.lock = NULL;
	/* the probes stop at their prologue's test of the state before they
	 * are detached: the uprobe perf events' release is slow and
	 * finishes in the background (attach.c) */
	consume_poll(&ds->cons, 0);
	filled(ds);
	set_state_for_end(ds);
	detach_all(&ds->links);
	budget_end(&ds->budget);
	ds->state = S_STOPPED;
	/* what the probes wrote before stopping, then END's own output;
	 * under fill, END may use the room kept for it */
	consume_poll(&ds->cons, 0);
	consume_buf_drops(&ds->cons);
	if (ds->cons.ctf) {
		uint64_t *lost, over = bufpolicy_overwritten(&ds->cons.held);

		/* fill and ring hold the firings until now: into the trace
		 * with them, before END (whose records follow them anyway) */
		consume_release(&ds->cons);
		lost = consume_lost(&ds->cons);
		if (ctf_writer__free(ds->cons.ctf, lost) < 0)
			rc = -EIO;
		ds->cons.ctf = NULL;
		free(lost);
		if (over)
			fprintf(ds->cfg.err, "%s: bufpolicy=ring kept each CPU's "
				"newest %llu bytes: %llu older records were "
				"overwritten\n", ds->cfg.progname,
				(unsigned long long)ds->opts.bufsize,
				(unsigned long long)over);
		if (ds->cons.held.aged)
			fprintf(ds->cfg.err, "%s: buftime kept the firings of "
				"the %.9g s before the newest: %llu older were "
				"let go\n", ds->cfg.progname,
				(double)ds->opts.buftime_ns / 1e9,
				(unsigned long long)ds->cons.held.aged);
	}
	consume_revive(&ds->cons);	/* END's records need a live ring */
	ds->cons.held.ending = true;
	end_rc = ds->killed ? 0 : attach_run_once(ds->spec, ATTACH_END, NULL,
						  ds->cfg.err, ds->cfg.progname);
	rc = end_rc < 0 ? end_rc : rc;
	consume_poll(&ds->cons, 0);
	consume_release(&ds->cons);
	consume_drops(&ds->cons);
	consume_final_aggs(&ds->cons);
	unwind_report(ds->uw, ds->cfg.err, ds->cfg.progname);
	if (output_failed(ds) < 0 && rc >= 0)
		rc = -ds->out_errno;
	consume_close(&ds->cons);
	unload_spec(ds->spec);
	return rc;
}

int dscope__status(const struct dscope *ds)
{
	return ds->cons.exit_status;
}

bool dscope__user_stacks(const struct dscope *ds)
{
	return ds->spec && ds->spec->user_stacks;
}

void dscope__note_process(struct dscope *ds, long pid)
{
	pthread_mutex_lock(&ds->lock);	/* the symbol caches name keys */
	usym_forget_pid((uint32_t)pid);	/* what it maps now, at its end */
	usym_note_pid((uint32_t)pid);
	usym_keep_pid((uint32_t)pid);
	pthread_mutex_unlock(&ds->lock);
}

int dscope__advance_command(struct dscope *ds, long pid)
{
	return procstop_advance((pid_t)pid, ds->opts.evaltime);
}

bool dscope__quiet(const struct dscope *ds)
{
	return ds->opts.quiet;
}
