/*
 * replay.h -- -x replay: a recorded trace's firings, run through the
 * script's own programs (spec/record.h, rt/ctf.h).
 *
 * Each event goes, in timestamp order, into spec.replay_map, and the
 * program of its probe runs on it by BPF_PROG_TEST_RUN on the CPU it was
 * recorded on (where this machine has that CPU): per-CPU aggregations,
 * printf's records and exit() take the same paths as live.  Events of a
 * probe the script does not name are passed over.
 *
 * tick-N fires on the trace's clock: N after the first event, every N,
 * before any event recorded later, until the last event (a trace says
 * nothing of the time after it).  A tick interrupted no recorded thread:
 * it runs on CPU 0 with timestamp the tick's time and pid, tid, uid, gid,
 * execname and arguments 0 or empty.
 *
 * A system call's return keeps one argument in the trace, the value, and
 * arg1 is that value again, as live.
 *
 * A system call's return has the strings its entry copied: the thread's
 * last entry is that call's, and what the entry read from the caller's
 * memory (a path) is what a live copyinstr of the same address at the
 * return reads -- so `self->path = arg1` at the entry and
 * copyinstr(self->path) at the return replay as live.  A string the
 * entry could not copy (its page not yet in memory), the return copied
 * (spec/record.h): at the return it is there, as live.  Buffers the call
 * fills are not strings the entry copies, so no stale copy stands in
 * for what the call wrote.
 */
#ifndef DSCOPE_REPLAY_H
#define DSCOPE_REPLAY_H

#include <stddef.h>
#include <stdio.h>

#include "rt/ctf.h"
#include "spec/spec.h"

struct replay_tick {
	int prog_fd;
	uint64_t period, next;	/* ns of the trace's clock */
};

struct replay {
	const struct spec *sp;
	const struct ctf_trace *t;
	int *prog_fd;		/* by event class: its program; -1: none */
	struct replay_tick *ticks;
	int nticks;
	signed char *sys_end;	/* by event class: 1 a system call's
				 * entry, -1 its return, 0 neither */
	struct replay_entry {	/* each thread's last system call entry */
		uint32_t tid;	/* 0: a free slot */
		size_t ev;
	} *entries;
	size_t nentries, entries_cap;	/* open addressing: cap a power of 2 */
	size_t next;		/* the next event to run */
	int ncpus;
};

/* Pair the trace's probes with the loaded programs; 0 or -errno (said
 * on err when the trace lacks the stacks a program reads). */
int replay_open(struct replay *r, const struct spec *sp, const struct ctf_trace *t,
		FILE *err, const char *progname);
/* Run up to n more events; 1 when none is left, 0 when some are, -errno
 * (said on err) when a program could not run. */
int replay_run(struct replay *r, size_t n, FILE *err, const char *progname);
void replay_close(struct replay *r);

#endif /* DSCOPE_REPLAY_H */
