/*
 * specbuf.h -- speculative records, held in user space until their
 * speculation is committed or discarded.
 *
 * The kernel tags each speculative record with (ID, generation) (spec.h)
 * and writes it to the principal buffer of its CPU; the commit or discard
 * of that tag is an ordinary record too.  The consumer reads the per-CPU
 * buffers one after another, so the end of a speculation may be read
 * before some of its records from another CPU: an ended tag is therefore
 * remembered for a while (two polls) and a late record of a committed tag
 * is printed at once, one of a discarded tag dropped.
 *
 * specsize bounds the bytes held per speculation: a record that does not
 * fit is a speculative drop, counted and reported, as is a record held for
 * a tag whose end never arrives (its ID was since reused).
 */
#ifndef DSCOPE_SPECBUF_H
#define DSCOPE_SPECBUF_H

#include <stdbool.h>
#include <stdint.h>

struct specbuf_rec {
	int cpu;
	uint32_t size;
	unsigned char data[];
};

enum specbuf_state { SB_PENDING, SB_COMMITTED, SB_DISCARDED };

struct specbuf {
	uint64_t tag;			/* SPEC_TAG(id, generation) */
	enum specbuf_state state;
	struct specbuf_rec **recs;	/* SB_PENDING: held, in arrival order */
	int nrecs, cap;
	uint64_t bytes;			/* held so far, against specsize */
	uint64_t poll;			/* poll of its creation, or of its end */
};

struct specbufs {
	struct specbuf *v;
	int n, cap;
	uint64_t polls;			/* consume_poll calls so far */
	uint64_t drops;			/* speculative drops not yet reported */
};

enum specbuf_fate { SB_PRINT, SB_HELD, SB_DROPPED };

/* A speculative record of tag: held, or to be printed now (committed
 * already), or dropped (discarded, or over specsize). */
enum specbuf_fate specbuf_add(struct specbufs *s, uint64_t tag, int cpu,
			      const void *rec, uint32_t size, uint64_t specsize);

typedef void specbuf_replay_f(void *ctx, int cpu, const void *rec,
			      uint32_t size);

/* commit (replay each held record, in order) or discard tag */
void specbuf_end(struct specbufs *s, uint64_t tag, bool commit,
		 specbuf_replay_f *replay, void *ctx);

/* After each poll: forget ended tags seen two polls ago, drop what a
 * reused ID left behind. */
void specbuf_tick(struct specbufs *s);

void specbuf_fini(struct specbufs *s);

#endif /* DSCOPE_SPECBUF_H */
