/*
 * oformat.h -- output formats other than dtrace(1)'s text (oformat).
 *
 * The consumer decodes each record once and carries out its actions once
 * (consume.c).  Under oformat=text it prints as it goes.  Under any other
 * format it hands what it decoded to an emitter: the probe that fired,
 * each printing action's values together with the text the text printer
 * made of them, aggregation snapshots (printa() and the end of the run),
 * run-time errors and drops.  An emitter only arranges: the printf engine,
 * the aggregation arithmetic and the symbol lookups stay the text
 * printer's, so a new format does not copy the printer.
 *
 *   json     one object a line (oformat_json.c; the schema is in dscope.1)
 *   folded   stack aggregations as "root;...;leaf value" lines
 *   svg      the same rows drawn as one flame graph, written at the end
 *            (oformat_folded.c, flamegraph.c)
 *
 * Under folded and svg the text of printf(), trace() and the like goes
 * to stderr, so that a script's messages are still seen and the output
 * stays one format.
 *
 * Records nest: commit() replays the records of its speculation from
 * inside its own.  So a record's state is a handle the consumer keeps
 * for the duration of the record (emit_record_begin .. _end).
 */
#ifndef DSCOPE_OFORMAT_H
#define DSCOPE_OFORMAT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "rt/aggprint.h"
#include "spec/options.h"
#include "spec/spec.h"

struct probe;
struct emitter;
struct emit_record;

struct emit_ops {
	struct emit_record *(*record_begin)(struct emitter *, int cpu,
					    uint32_t probe_id,
					    const struct probe *);
	/* an action that prints or ends the run; text (len bytes) is what
	 * the text printer made of it, NULL for printa and exit */
	void (*action)(struct emitter *, struct emit_record *,
		       const struct spec_action *, const struct fmt_val *v,
		       const char *text, size_t len);
	void (*record_end)(struct emitter *, struct emit_record *);
	/* aggregation snapshots: printa's (rec set) or the run's last */
	void (*aggs)(struct emitter *, struct emit_record *rec,
		     const struct agg_data *aggs, int naggs);
	void (*error)(struct emitter *, const struct err_record *,
		      const struct probe *, const char *message);
	void (*drop)(struct emitter *, const char *kind, int cpu, uint64_t n);
	void (*finish)(struct emitter *);	/* the end of the run */
	void (*free)(struct emitter *);
};

struct emitter {
	const struct emit_ops *ops;
	FILE **out;			/* the consumer's: freopen() moves it */
	FILE *err;
	const char *progname;
	const struct fmt_sym_ops *syms;
	struct agg_sort_opts sort;	/* rows print in the text's order */
};

/* The emitter for format f, or NULL for text (or when out of memory). */
struct emitter *emit_new(enum oformat f, FILE **out, FILE *err,
			 const char *progname, const struct fmt_sym_ops *syms);

/* v's integer, cut to its D type's width and extended as the type's
 * signedness says (print it with %llu when the type is unsigned). */
int64_t emit_int(const struct fmt_val *v);

/* The emitters, for emit_new. */
struct emitter *emit_json_new(void);
struct emitter *emit_folded_new(bool svg);

#endif /* DSCOPE_OFORMAT_H */
