/*
 * dscope.h -- libdscope, the engine behind dscope(1): D programs compiled
 * to eBPF, run against the live kernel, their output printed as DTrace
 * prints it.
 *
 * A session:
 *
 *	struct dscope *ds = dscope__new(&cfg);
 *	dscope__add_program(ds, text, "script.d");	(or NULL for -n text)
 *	dscope__compile(ds);
 *	dscope__go(ds);				load, run BEGIN, attach
 *	while (dscope__poll(ds, 100) == 0)	consume until exit()
 *		;
 *	dscope__stop(ds);			detach, run END, print aggregations
 *	dscope__free(ds);
 *
 * Every function returns 0 or a negative errno and has already printed a
 * sentence about the failure to cfg.err, prefixed with cfg.progname.
 * Ownership: the session owns everything it creates, including every
 * kernel object (maps, programs, links, perf events: all fds, all closed
 * by dscope__stop/dscope__free or by the kernel if the process dies).
 */
#ifndef DSCOPE_H
#define DSCOPE_H

#include <stdbool.h>
#include <stdio.h>

#define DSCOPE_API __attribute__((visibility("default")))
#define DSCOPE_VERSION "0.1.0"

struct dscope;

struct dscope_config {
	const char *progname;	/* prefix of every message: "dscope" */
	FILE *out;		/* trace output */
	FILE *err;		/* messages */
};

DSCOPE_API struct dscope *dscope__new(const struct dscope_config *cfg);
DSCOPE_API void dscope__free(struct dscope *ds);	/* NULL is fine */

/* -x name[=value] and its shorthands; -1 with a message if invalid. */
DSCOPE_API int dscope__setopt(struct dscope *ds, const char *name,
			      const char *value);
/* Macro arguments: argv[0] is $0 (the script), argv[1..] are $1.. */
DSCOPE_API void dscope__set_args(struct dscope *ds, int argc, char **argv);
/* $target: the pid of -c's command or -p's process. */
DSCOPE_API void dscope__set_target(struct dscope *ds, long pid);
/* The command line of -c's $target, when it has not exec'd yet: its pid
 * probes are found in the executable it names and that one's libraries. */
DSCOPE_API void dscope__set_target_command(struct dscope *ds, const char *cmd);
/* Whether the compiled program takes user stacks (ustack()), whose
 * frames are named from each process's maps: read them for pid with
 * dscope__note_process() while it is still mapped (at its exit). */
DSCOPE_API bool dscope__user_stacks(const struct dscope *ds);
/* The -c command, ptrace-stopped at its exec: run it to where -x evaltime
 * says its probes take effect (exec, its entry point, or main()), and
 * leave it stopped there.  -1 if it exited on the way (it is reaped). */
DSCOPE_API int dscope__advance_command(struct dscope *ds, long pid);
DSCOPE_API void dscope__note_process(struct dscope *ds, long pid);

/* A D program: the text of a script (filename given) or of -n (NULL). */
DSCOPE_API int dscope__add_program(struct dscope *ds, const char *text,
				   const char *filename);

DSCOPE_API int dscope__compile(struct dscope *ds);
/* -l: the probes the programs' descriptions match (every probe if there
 * is no program); verbose adds argument types.  A description matching
 * nothing is reported, as DTrace does, and makes the result -ENOENT. */
DSCOPE_API int dscope__list(struct dscope *ds, bool verbose);
/* -vV: each kernel capability dscope chooses by, tried on this kernel,
 * yes or no, with what is done without it (DSCOPE_CAPS_DISABLE applies). */
DSCOPE_API void dscope__print_caps(FILE *out);

/*
 * -h and -G, instead of tracing: what an application's build needs for
 * the probes its provider definitions declare (the programs are parsed,
 * not compiled: a build needs no kernel support and no privilege).
 * dscope__header writes a C header over <sys/sdt.h> to out; name is its
 * file name, for the include guard.  dscope__link writes at path the ELF
 * object defining the probes' is-enabled semaphores, for the ELF class
 * and machine of the first ELF object among objs (the application's
 * objects, otherwise unread), or of the host with bits 32 or 64 (0: the
 * host's own).  libdtrace's dtrace_program_header() and _link().
 */
DSCOPE_API int dscope__header(struct dscope *ds, FILE *out, const char *name);
DSCOPE_API int dscope__link(struct dscope *ds, const char *path, int bits,
			    int nobjs, char *const *objs);

/* Load, run BEGIN, attach.  While it runs, SIGINT, SIGTERM and SIGHUP are
 * held back on the calling thread: one come stops an attach storm between
 * its batches (everything released, said, -EINTR), and is delivered to
 * the caller's handler as the call returns.  The overhead budget watches
 * from before the probes attach; over it while they attach, the call
 * returns 0 and the first dscope__poll -ECANCELED. */
DSCOPE_API int dscope__go(struct dscope *ds);
/* Wait up to timeout_ms (less when a rate option makes something due
 * sooner), then do what is due: read the principal buffers (switchrate),
 * check for exit() and drops (statusrate, aggrate), and what the probes
 * cost (option budget).  0; 1 once a status check has seen exit() or,
 * under bufpolicy=fill, a full buffer; -ECANCELED once the probes' cost
 * passed the budget (said), after which dscope__stop runs no END; other
 * negatives on error. */
DSCOPE_API int dscope__poll(struct dscope *ds, int timeout_ms);
/* bufpolicy=ring: write out what the ring keeps now -- to the trace under
 * -x record, a flight recorder's snapshot -- and go on keeping the newest
 * (dscope(1) does it on SIGUSR1).  0, or a negative errno (said). */
DSCOPE_API int dscope__snapshot(struct dscope *ds);
DSCOPE_API int dscope__stop(struct dscope *ds);
/* The status given to exit(), 0 if none. */
DSCOPE_API int dscope__status(const struct dscope *ds);
/* Whether option quiet is in force (set by -q, -x or a pragma). */
DSCOPE_API bool dscope__quiet(const struct dscope *ds);

#endif /* DSCOPE_H */
