/*
 * ctf.h -- traces kept for later, in the Common Trace Format (CTF 1.8, as
 * LTTng writes it), which babeltrace2 and Trace Compass read unchanged.
 *
 * A trace is a directory: `metadata` (the TSDL text describing the
 * layout) and one stream file per CPU, `stream_N`, each a run of whole
 * packets.  Every event is one firing of a recorded probe: its event
 * class is named for the probe ("syscall::getppid:entry"); its header
 * carries the class and the timestamp (the probe's `timestamp`, mapped to
 * wall-clock time by the clock's offset); its context pid, tid, uid, gid
 * and execname; its payload the probe's arguments, arg0..argN-1, then
 * for each string argument K copied at the probe (spec/record.h) a
 * uint8_t argK_copied (0: the copy faulted) and a string argK_str; a
 * return's, entry_argK_copied and entry_argK_str, the strings its entry
 * could not copy, copied at the return (spec/record.h).  Each
 * packet's context carries the CPU and, as CTF's events_discarded, how
 * many firings that CPU has lost so far: losses are in the trace itself.
 *
 * The metadata lists every probe the recording enabled, in comments
 * of its own ("enabled prov:mod:func:name" in a TSDL comment), so that a replay
 * tells a probe that never fired from one that was not recorded.  The
 * writer adds an event class to the metadata the first time its probe
 * fires and writes packets whole, with one write each, and the
 * metadata before them: a recorder killed at any moment leaves a trace
 * that reads up to its last packet.  A recording that ends as it should
 * leaves a hidden `.dscope-complete` (a CTF reader skips hidden files);
 * the replay says when it is missing.
 */
#ifndef DSCOPE_CTF_H
#define DSCOPE_CTF_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "spec/record.h"

struct ctf_writer;

/* One firing to write: the fields of an ACT_RECORD record. */
struct ctf_event {
	uint64_t timestamp;
	uint32_t pid, tid, uid, gid;
	const char *execname;
	const int64_t *args;	/* RECORD_ARGS of them */
	int nargs;		/* how many the event class keeps: the first
				 * event's says it for every later one */
	struct ctf_str {	/* string arguments copied at the probe */
		int arg;		/* its index in args (the entry's) */
		bool copied;		/* false: the copy faulted, s is "" */
		const char *s;
	} strs[RECORD_STRS];
	int nstrs;		/* the first event of a class names every
				 * string its class holds; a later one may
				 * leave some out: they are written as not
				 * copied */
	bool strs_of_entry;	/* a system call's return: its strings are
				 * its entry's arguments (entry_argK_str) */
};

/* Make dir (or use it, if it holds no trace) and start its metadata,
 * which lists the probes enabled[0..nenabled) as recorded (those that
 * never fire have no event class); 0 or -errno, the reason said on err. */
int ctf_writer__new(const char *dir, int ncpus, const char *const *enabled,
		    int nenabled, FILE *err, const char *progname,
		    struct ctf_writer **out);
/* Whether probe_id's event class is declared yet (else __event needs
 * its name). */
bool ctf_writer__knows(const struct ctf_writer *w, uint32_t probe_id);
/* probe_id names the event class (name, the probe's, on first sight). */
int ctf_writer__event(struct ctf_writer *w, int cpu, uint32_t probe_id,
		      const char *name, const struct ctf_event *ev);
/* Write each CPU's pending events as one packet; discarded[cpu], the
 * firings it has lost so far (NULL: none).  0 or -errno. */
int ctf_writer__flush(struct ctf_writer *w, const uint64_t *discarded);
/* The events written so far. */
uint64_t ctf_writer__events(const struct ctf_writer *w);
/* Flush, mark the trace complete, say how many events it holds; NULL
 * is fine.  0 or -errno. */
int ctf_writer__free(struct ctf_writer *w, const uint64_t *discarded);

/* A trace read back, its events in timestamp order. */
struct ctf_trace {
	char **enabled;		/* the probes recorded, fired or not */
	int nenabled;
	char **probes;		/* event class names, by class id */
	int *nargs;		/* and how many arguments each has */
	uint8_t (*strs)[RECORD_STRS];	/* and its string arguments' indices */
	int *nstrs;
	bool *strs_of_entry;	/* and whether they are its entry's (a system
				 * call's return: entry_argK_str) */
	int nprobes;
	struct ctf_replayed {
		struct replay_rec rec;
		size_t str_off[RECORD_STRS];	/* rec.str_ok[i]: its string
						 * at pool + str_off[i] */
		uint32_t cls;		/* its class: probes[cls] */
		uint64_t seq;		/* read order: ties of time keep it */
	} *events;
	size_t nevents;
	char *pool;		/* the events' strings */
	size_t pool_len, pool_cap;
	bool complete;		/* the recorder finished (.dscope-complete) */
	uint64_t discarded;	/* firings the recorder lost, all CPUs */
};

/* Read dir whole; 0, or -1 with the one sentence why said on err. */
int ctf_trace_read(const char *dir, struct ctf_trace *t, FILE *err,
		   const char *progname);
void ctf_trace_free(struct ctf_trace *t);

#endif /* DSCOPE_CTF_H */
