/*
 * attach.h -- connect loaded programs to their events.
 *
 * Every attachment is an fd (a raw tracepoint link, a perf event): closing
 * it detaches, and the kernel closes them all if dscope dies, so nothing is
 * ever left behind (DESIGN.md 3.5).  BEGIN and END are not attached at all:
 * they run once, on this thread, through BPF_PROG_TEST_RUN.
 */
#ifndef DSCOPE_ATTACH_H
#define DSCOPE_ATTACH_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "spec/spec.h"

/* A profile or tick timer on one CPU: its fd is set->fds[idx]; -1 while
 * the CPU is offline. */
struct attach_timer {
	const struct spec_prog *p;
	int cpu;
	int idx;
	uint64_t enabled;	/* the event's enabled time when last looked */
};

struct attach_set {
	int *fds;		/* closed at once by detach_all */
	int n, cap;
	struct attach_timer *timers;
	int ntimers, tcap;
	int *slow;		/* uprobe perf events: closed by a child */
	int nslow, slowcap;
	/* looked at between the batches of a long attach (attach_between):
	 * 0 goes on, a negative errno stops the attach; NULL: never stops */
	int (*between)(void *arg);
	void *between_arg;
	/* an attach the budget stopped: "attaching N of M fbt probes" */
	char stopped[64];
};

/* Fill MAP_SYSINFO from the spec. */
int attach_sysinfo(const struct spec *sp, FILE *err, const char *progname);

/* Fill the CPU table (spec.cpuinfo_map, if the program has one) from
 * sysfs: each possible CPU's package and NUMA node. */
int attach_cpuinfo(const struct spec *sp, FILE *err, const char *progname);
/*
 * Attach every program except BEGIN/END; on failure detach what was done.
 * An attach storm (tens of thousands of fbt probes, thousands of pid
 * probes as perf events) takes seconds to an hour, so SIGINT, SIGTERM
 * and SIGHUP are held back while it runs and looked for between its
 * batches (attach_between): one come stops it, everything attached is
 * detached, -EINTR returned, and the signal is delivered to the caller's
 * handler as the call returns.  set->between, if set, is asked there
 * too (the overhead budget): its -ECANCELED stops the attach with what
 * was attached kept, for the caller to stop as it stops a run.
 */
int attach_all(const struct spec *sp, struct attach_set *set, FILE *err,
	       const char *progname);
/* The signals that end dscope (SIGINT, SIGTERM, SIGHUP), held back
 * while it attaches. */
void attach_ending_signals(sigset_t *s);
/* Between two batches of an attach: -EINTR if a signal that ends dscope
 * is pending, else what set->between says (0: go on). */
int attach_between(struct attach_set *set);
/* Detach: no program runs once this returns.  The uprobe PMU's perf
 * events kept as slow, whose release costs the kernel ~130 ms each, are
 * released by a child process that outlives the call (their programs do
 * nothing once dscope__stop has set the state). */
void detach_all(struct attach_set *set);

/* Is cpu online (sysfs)?  cpu0, which has no "online" file, is. */
bool attach_cpu_online(int cpu);

/*
 * CPU hot-plug: the kernel drops a CPU's perf events when it goes offline
 * and does not bring them back with it, so a profile probe would fire on
 * the others only.  Each timer whose event stands still on a CPU online
 * (or that was never opened there) is opened again.  Cheap when nothing
 * changed: a read() per timer.
 */
void attach_revive(struct attach_set *set);
/* Run the BEGIN, END or ERROR program once, if the spec has one, with
 * arg0..arg11 from args (NULL: all zero). */
int attach_run_once(const struct spec *sp, enum spec_attach which,
		    const uint64_t *args, FILE *err, const char *progname);

#endif /* DSCOPE_ATTACH_H */
