/*
 * options.h -- DTrace's run-time and compile-time options (-x name=value,
 * #pragma D option, and the flags that are shorthands for them: -q is
 * quiet, -w destructive, -Z zdefs).
 *
 * Sizes accept DTrace's suffixes (k, m, g, t); rates accept a time unit
 * (ns us ms s m h d, or hz: a frequency); a bare number is nanoseconds, as
 * in DTrace.
 */
#ifndef DSCOPE_OPTIONS_H
#define DSCOPE_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* What a full principal buffer means (bufpolicy); see rt/bufpolicy.h. */
enum bufpolicy {
	BUFPOLICY_SWITCH,	/* records are printed as they are read */
	BUFPOLICY_FILL,		/* the first bufsize bytes per CPU, then stop */
	BUFPOLICY_RING,		/* the newest bufsize bytes per CPU, at the end */
};

/* Where the -c command is stopped for its probes to be evaluated
 * (evaltime, dt_opt_evaltime); see rt/procstop.h. */
enum evaltime {
	EVALTIME_EXEC,		/* at its exec: before the dynamic linker */
	EVALTIME_PREINIT,	/* at its entry point: libraries loaded */
	EVALTIME_POSTINIT,	/* at main(), as dtrace-utils (its default) */
	EVALTIME_MAIN,		/* at main() */
};

/* How the consumer writes what it prints (oformat); see rt/oformat.h. */
enum oformat {
	OFORMAT_TEXT,		/* dtrace(1)'s text */
	OFORMAT_JSON,		/* one JSON object a line (docs/dscope.1) */
	OFORMAT_FOLDED,		/* stack aggregations as folded stacks */
	OFORMAT_SVG,		/* stack aggregations as a flame graph */
};

/* DTrace's bufsize: 4 MiB of principal buffer per CPU */
#define OPTIONS_BUFSIZE_DEFAULT (4u << 20)

struct options {
	bool quiet;		/* quiet: no probe headings, no "matched" */
	bool destructive;	/* destructive (-w) */
	bool zdefs;		/* zdefs (-Z): descriptions may match nothing */
	bool defaultargs;	/* unset $N are 0 / "" */
	bool empty;		/* empty: a program may have nothing in it */
	bool argref;		/* argref: the last macro argument may go unused */
	bool errtags;		/* errtags: [D_TAG] in compile errors */
	bool aggsortkey, aggsortrev;
	int aggsortpos, aggsortkeypos;
	uint32_t strsize;	/* bound of strings of unknown size */
	uint64_t bufsize;	/* principal buffer bytes per CPU */
	uint64_t aggsize;	/* aggregation space */
	uint64_t dynvarsize;
	uint64_t scratchsize;	/* alloca() bytes a clause may take */
	uint64_t nspec;		/* speculation IDs (speculation() returns 1..nspec) */
	uint64_t specsize;	/* bytes one speculation may hold before drops */
	uint64_t cleanrate_ns;	/* how often the consumer forgets ended ones */
	enum bufpolicy bufpolicy;
	uint64_t buftime_ns;	/* ring under record: keep the firings of this
				 * long before the newest; 0: bytes only */
	enum oformat oformat;	/* read once, when tracing starts */
	enum evaltime evaltime;	/* -c: where its probes take effect */
	uint64_t switchrate_ns;	/* read the principal buffers at least this often */
	uint64_t statusrate_ns;	/* look for exit() and drops this often */
	uint64_t aggrate_ns;	/* look for aggregation drops this often */
	int stackindent;
	uint64_t printsize;	/* bytes of an object print() shows */
	int cpu;		/* cpu: the one CPU probes fire on, or -1 */
	char record[256];	/* record: the directory a trace is written to */
	char replay[256];	/* replay: the recorded trace the probes fire from */
	char zone[256];		/* zone: probes fire in the containers this
				 * glob names (or cgroup id), "": anywhere */
	int stackframes;	/* stack()'s frames when it names none */
	int ustackframes;	/* ustack()'s */
	uint64_t ustackrows;	/* unwind table rows for ustack(); 0: frame pointers */
	int maxframes;		/* the most frames any stack takes */
	bool rawbytes;		/* byte data always as a hex dump */
	bool noresolve;		/* addresses, not symbols, in output */
	bool flowindent;	/* -F: entry/return indented as a call tree */
	bool nolibs;		/* no D library (translators, inlines) */
	bool disasm;		/* -S, verbose: print the BPF programs */
	/* Prometheus export (rt/metrics.h), read when tracing starts */
	char metrics[128];	/* ADDR:PORT to serve /metrics on; "": off */
	char metrics_labels[1024];	/* "@agg:l1,l2" entries, space-separated:
					 * each -x or pragma adds one */
	char metrics_webconfig[256];	/* TLS and basic auth (rt/webconfig.h) */
	bool metrics_insecure;	/* serve a non-loopback address without them */
	bool metrics_stacks;	/* stack keys become label values */
	uint64_t metrics_maxsize;	/* bytes of one /metrics response */
	/* the overhead budget (rt/budget.h): the share of all CPUs' time the
	 * probes may take over a window, in millionths; 0: none */
	uint32_t budget_ppm;
	bool budget_set;	/* set by -x budget: holds under -w too */
};

/* Default overhead budget: half the machine, in millionths (rt/budget.h
 * says why). */
#define BUDGET_DEFAULT_PPM 500000

void options_init(struct options *o);

/* The budget in force: the one set, else the default but under
 * destructive (-w), whose probes may stall the machine on purpose
 * (chill()), as DTrace's deadman spares destructive consumers. */
uint32_t options_budget(const struct options *o);

/* Set one option; value NULL for a bare "-x name".  0, or -1 with a
 * sentence in err ("Invalid option name", "Invalid value for option"). */
int options_set(struct options *o, const char *name, const char *value,
		char *err, size_t errlen);

/* Is name one of DTrace's run-time options that only take effect when
 * tracing starts (bufsize, strsize, nspec, ...), which setopt() may not
 * change once it has (dtrace_setopt: EDT_ACTIVE)? */
bool options_fixed_once_tracing(const char *name);

/* Does name shape how a program is read (cpp, define, libdir, ...), so
 * that only the command line may set it, not a #pragma D option? */
bool options_cmdline_only(const char *name);

/* The table, one line an option: dscope -vV prints it. */
void options_list(FILE *f);

/* Entries an aggregation map gets from aggsize and its entry size. */
uint32_t options_agg_entries(const struct options *o, uint32_t entry_size);

/* The bytes a record of size bytes takes in a principal buffer: its perf
 * sample, 8 bytes of header and 4 of size before it, padded to 8. */
uint32_t bufpolicy_cost(uint32_t size);

#endif /* DSCOPE_OPTIONS_H */
