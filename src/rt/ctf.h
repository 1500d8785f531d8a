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
	uint8_t stacks;		/* CTF_KSTACK | CTF_USTACK: the stack ids the
				 * class holds (its first event's say) */
	uint32_t stack_id, ustack_id;	/* 0: none recorded */
};

enum { CTF_KSTACK = 1, CTF_USTACK = 2 };

/*
 * Stacks: an event of a clause that asked for stack() (ustack()) holds a
 * uint32_t stack_id (ustack_id) after its arguments, naming a stack the
 * trace defined earlier, once, in an event of class "dscope:::stack":
 * its stack_id, user (0 or 1), nframes, pc[nframes], symaddr[nframes]
 * and frames, the frames' names joined by ';' ("mod`sym", "mod" alone,
 * "" where nothing was known), looked up while the process lived; a
 * user stack's pid is the event's.  A replay names frames from these,
 * not from the replaying machine (ctf_trace_sym).
 */
struct ctf_frame {
	uint64_t pc, symaddr;
	const char *mod, *sym;	/* NULL: not known */
};

/* The id of a stack (words as stack() lays them out: a user stack's pid
 * first), 0 for an empty one; *fresh: first seen, the caller writes its
 * definition (ctf_writer__stack) before the event that uses it.  0 with
 * *fresh false also when out of memory. */
uint32_t ctf_writer__stack_id(struct ctf_writer *w, bool user,
			      const uint64_t *words, uint32_t nwords, bool *fresh);
/* Stack id's definition event, at the firing's time and CPU; ev gives
 * its context (the pid of a user stack's process). */
int ctf_writer__stack(struct ctf_writer *w, int cpu, const struct ctf_event *ev,
		      uint32_t id, bool user, const struct ctf_frame *f, uint32_t n);

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
/* The stack definitions written so far (events too: __events counts
 * them). */
uint64_t ctf_writer__stacks(const struct ctf_writer *w);
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
	uint8_t *stack_ids;	/* and the stack ids it holds (CTF_KSTACK...) */
	int stack_cls;		/* the class of stack definitions; -1: none */
	int nprobes;
	struct ctf_replayed {
		struct replay_rec rec;
		size_t str_off[RECORD_STRS];	/* rec.str_ok[i]: its string
						 * at pool + str_off[i] */
		uint32_t cls;		/* its class: probes[cls] */
		uint64_t seq;		/* read order: ties of time keep it */
		uint32_t stack_id, ustack_id;	/* 0: none (ctf_trace_stack) */
	} *events;
	struct ctf_stack {	/* the trace's stacks, by id */
		uint32_t id;
		bool user;
		uint32_t pid, n;
		struct ctf_frame *f;	/* n frames; names in the same block */
	} *stacks;
	uint32_t nstacks, stacks_cap;
	struct ctf_symtab {	/* (user ? pid + 1 : 0, pc) -> a frame */
		uint64_t key, pc;
		const struct ctf_frame *f;
	} *syms;
	size_t syms_cap;	/* a power of two */
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

/* The stack of id, NULL if the trace does not define it (cut short). */
const struct ctf_stack *ctf_trace_stack(const struct ctf_trace *t, uint32_t id);
/* A frame's name as the trace recorded it, in fmt_sym_ops.lookup's
 * terms: ctx is the trace; the user one's pid is the recorded process. */
bool ctf_trace_ksym(void *ctx, uint64_t addr, const char **mod,
		    const char **sym, uint64_t *symaddr);
bool ctf_trace_usym(void *ctx, uint32_t pid, uint64_t addr, const char **mod,
		    const char **sym, uint64_t *symaddr);

#endif /* DSCOPE_CTF_H */
