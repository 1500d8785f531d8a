/*
 * consume.h -- read the principal buffers and carry out recorded actions.
 *
 * Each CPU's buffer holds records (spec.h) in the order that CPU made them.
 * The consumer decodes each through its epid's layout and performs the
 * actions in user space: printf formatting, trace output, printa, clear,
 * exit.  Lost data is counted twice over -- by the kernel's perf ring
 * (lost samples) and by the programs' own drop counters (MAP_DROPS) -- and
 * every loss is reported, per CPU, as DTrace does.  Never silently.
 */
#ifndef DSCOPE_CONSUME_H
#define DSCOPE_CONSUME_H

#include <stdbool.h>
#include <stdio.h>

#include "rt/agg.h"
#include "rt/options.h"
#include "rt/spec.h"
#include "rt/specbuf.h"

struct catalog;
struct perf_buffer;

struct consumer {
	const struct spec *sp;
	struct catalog *cat;
	struct options *opts;		/* the session's: setopt() changes them */
	FILE *out, *err;
	FILE *orig_out;			/* out before any freopen() */
	const char *progname;
	bool testing;			/* _DTRACE_TESTING: no CPU/ID columns */
	bool header_done;		/* the column header has been printed */
	bool done;			/* exit() seen */
	int exit_status;
	uint64_t errors;		/* run-time errors reported */
	struct perf_buffer *pb;
	struct agg_state aggs;
	uint64_t *lost;			/* per CPU: reported so far */
	struct drop_counts *dropped;	/* per CPU: reported so far */
	struct specbufs specs;		/* speculative records held back */
	uint64_t specunavail;		/* failed speculations reported so far */
	int ncpus;
	struct fmt_sym_ops syms;	/* kernel symbols for stacks, sym() */
};

int consume_open(struct consumer *c);
/* Wait up to timeout_ms for records and process them; <0 on error. */
int consume_poll(struct consumer *c, int timeout_ms);
/* Report drops counted since the last call. */
void consume_drops(struct consumer *c);
/* End of run: the default output of aggregations not yet printed. */
void consume_final_aggs(struct consumer *c);
void consume_close(struct consumer *c);

#endif /* DSCOPE_CONSUME_H */
