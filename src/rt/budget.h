/*
 * budget.h -- the overhead budget: what dscope's probes cost the machine
 * while they run, and a stop when it is too much.
 *
 * DTrace promises that turning it on cannot take the system down: its
 * kernel's deadman aborts a consumer under which the system stops
 * responding ("Abort due to systemic unresponsiveness").  eBPF's verifier
 * keeps one program from looping, not thousands of cheap firings on a
 * hot path.  So while tracing, dscope measures the probes' cost and, when
 * over a window it passes the budget (option budget: a share of all the
 * CPUs' time), the session stops tracing as the deadman does: every
 * probe detached, no END, the aggregations printed, exit status 1.
 *
 * The cost of a window is, over every program dscope attached:
 *  - the kernel's own count of the time the program ran (run_time_ns),
 *    sampled: BPF_ENABLE_STATS is held for the last BUDGET_SAMPLE_NS of
 *    each window only.  While it is held the kernel reads its clock
 *    twice around every BPF program run on the machine, which is cheap
 *    on bare metal, but measured here (a guest whose clock is slow to
 *    read) it added 350 ns to each firing of a program that itself
 *    takes 100: held for a tenth of the time, a tenth of that; and
 *  - for pid and usdt probes, the trap that enters each firing: a uprobe
 *    costs the traced thread an exception and a single step around the
 *    program, many times the program itself.  That cost is measured, not
 *    assumed: as the CPU time a uprobe with an empty program adds to a
 *    call in dscope itself (budget_calibrate), timed at each sample's
 *    end (trap_cost), so it scales with the machine as the
 *    programs' own times do (an emulated guest is slower at both, and
 *    slower still while all its CPUs are busy).  A return probe is two
 *    traps.
 * Kernel probes (tracepoints, fentry, kprobes on ftrace) enter their
 * programs for a small fraction of the programs' own cost: not counted.
 *
 * What the cost is a share of:
 *  - pid and usdt probes, which run in the processes they name: those
 *    processes' CPU time over the window (/proc/PID/stat).  A uprobe on
 *    a hot function slows its process many times over -- the database
 *    being diagnosed stalls -- while on a machine of many CPUs it is a
 *    small share of the machine; and how much of a shared machine one
 *    process gets is the scheduler's choice (on a host whose users each
 *    have a cgroup, at most their part), not the probes', so the
 *    machine's share would hide a storm under load.  The trap is in the
 *    process's own system time, so this share is at most about 100%.
 *  - every other probe (and pid or usdt probes not tied to a process):
 *    the machine's time, all online CPUs over the window.
 * Either share passing the budget stops the run.
 *
 * The default budget is 50% (BUDGET_DEFAULT_PPM), sampled over the last
 * 200 ms (BUDGET_SAMPLE_NS) of each window of 2 s (BUDGET_WINDOW_NS).
 * Why so much: a budget must stop a storm, not a heavy trace someone
 * meant.  Measured on the 2-CPU
 * development machine: tracing every getppid() of two processes that do
 * nothing else, a printf() and a count() each (tests/sh/flood.sh), the
 * programs take 266 ns of each 660 ns call -- 40% of the machine when the
 * two have both CPUs -- and that trace is meant and must run.  A uprobe
 * on a function called in a tight loop takes nearly all of the time of
 * its process (a firing costs 700-1000 ns, the function 2 ns): 85% and
 * more of it is measured.  Both are ratios, so a slower machine
 * measures the same; under qemu's emulation a trap in a storm costs more
 * than dscope's timing of one, and the storm measures less (50-95% in
 * Debian 11's guest: budget.c, trap_cost).  A sample of 200 ms
 * is long enough for the processes' clock ticks (10 ms) to divide by,
 * and a window of 2 s keeps the stats' own cost (above) to a tenth while
 * a storm is still stopped within a few seconds.
 *
 * Under -w the default is off, as DTrace's deadman spares a consumer
 * allowed destructive actions (chill() stalls the machine on purpose);
 * a budget set explicitly holds there too.
 */
#ifndef DSCOPE_BUDGET_H
#define DSCOPE_BUDGET_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "spec/spec.h"

#define BUDGET_WINDOW_NS 2000000000ull	/* 2 s */
#define BUDGET_SAMPLE_NS 200000000ull	/* the part of it measured: 200 ms */

/* One program's counters, as last read. */
struct budget_prog {
	int fd;				/* our own fd for it, closed by budget_end */
	uint32_t id;
	const struct spec_prog *sp;	/* what it serves (its probes) */
	uint64_t run_ns, run_cnt;	/* the kernel's stats when last read */
	uint64_t cost;			/* over the last sample, in ns */
};

struct budget {
	bool on;			/* measuring: the kernel can time programs */
	int stats_fd;			/* BPF_ENABLE_STATS while sampling; else -1 */
	int ncpus;			/* online CPUs: the machine's time */
	int *pids;			/* the processes the pid and usdt probes
					 * are in; NULL: some are system-wide */
	int npids;
	uint64_t proc_ns;		/* their CPU time as the sample began; 0:
					 * unknown */
	uint64_t proc_window;		/* their CPU time over the last sample */
	uint64_t machine_ppm, proc_ppm;	/* the last sample's shares */
	bool calibrated;		/* the trap's uprobe is on: timed at each
					 * sample (budget.c, trap_cost) */
	uint64_t plain_ns;		/* its calls' CPU time without it */
	uint64_t last;			/* CLOCK_MONOTONIC ns the sample began */
	uint64_t window;		/* ns the last sample lasted */
	struct budget_prog *progs;
	int nprogs;
};

/*
 * Start measuring, before the probes attach (an attach storm is watched
 * as it goes): stats on, every program the probes will run found (by the
 * ids /proc/self/fdinfo shows for dscope's program and link fds) and
 * read once.  Without the rights or the kernel for the stats,
 * nothing is measured; said if the user asked for a budget (said).  The
 * uprobe that measures a pid probe's trap is left to set to release.
 */
struct attach_set;
void budget_start(struct budget *b, const struct spec *sp,
		  struct attach_set *set, bool said, FILE *err,
		  const char *progname);

/* The programs loaded since budget_start (fbt's fentry copies, made as
 * they attach), measured from now on. */
void budget_more(struct budget *b, const struct spec *sp);

/* At *next (CLOCK_MONOTONIC ns), now: begin a window's sample, or end
 * it, working out each program's cost and the sample's shares
 * (millionths); sets *next, and returns whether a share passed
 * budget_ppm. */
bool budget_tick(struct budget *b, uint64_t now, uint32_t budget_ppm,
		 uint64_t *next);

/* Over budget: "processing aborted", what was spent, the budget, how
 * far an attach it stopped had come (stopped: "attaching N of M fbt
 * probes", or NULL) and the programs that cost most, with their probes,
 * in one sentence. */
void budget_say(const struct budget *b, const struct spec *sp,
		uint32_t budget_ppm, const char *stopped, FILE *err,
		const char *progname);

/* Stop measuring: the stats fd and the programs' fds closed. */
void budget_end(struct budget *b);

#endif /* DSCOPE_BUDGET_H */
