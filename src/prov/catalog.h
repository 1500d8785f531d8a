/*
 * catalog.h -- every probe dscope knows, and DTrace's way of naming them.
 *
 * A probe is named provider:module:function:name and carries a DTrace-style
 * ID that is stable within one run.  catalog__new() runs the providers
 * that have standing probes in the order of enum prov_kind (the table
 * providers[] in catalog.c), so dtrace:::BEGIN is 1, END 2, ERROR 3, then
 * come the profile provider's standing probes, syscall:vmlinux:*:{entry,
 * return} in syscall-number order, the stable providers' probes (proc,
 * sched and io together: stable.c), the network providers' (net.c) and
 * lockstat's.  The rest are made when a description first names them
 * and take the next free IDs: profile-N and tick-N of other periods;
 * sdt's tracepoints (a walk of tracefs and BTF, paid only when a
 * description may name one); a process's pid, USDT and plockstat probes,
 * read from its files; fbt's kernel functions; the derived sched, proc,
 * vminfo and sysinfo probes (derived.c).
 *
 * The catalog owns every probe and every string a probe points to; they live
 * until catalog__free().  Pointers handed out are stable: a probe made on
 * demand never moves the others.
 *
 * Matching follows DTrace: each of the four fields of a description is a
 * shell glob (* ? [set] [!set], backslash quotes), and an empty field matches
 * anything.  A description naming profile-N or tick-N (N followed by one of
 * ns nsec us usec ms msec s sec m min h hour d day hz, no unit meaning hz)
 * creates that probe if the provider, module and function fields can name the
 * profile provider.  A name that is not such a probe, or is one with a period
 * under 200us (DTrace's floor), simply matches nothing, as in DTrace, where
 * the compiler then reports D_PDESC_ZERO; catalog__hint() says why.
 *
 * Argument types are read on first use, not at start-up (catalog__args()),
 * each provider from its own source: syscall's from tracefs
 * (events/syscalls/sys_enter_NAME/format), sdt's and fbt's from BTF, the
 * stable and lowered providers' from their translators' tables, USDT's
 * from the notes' operands.
 */
#ifndef DSCOPE_CATALOG_H
#define DSCOPE_CATALOG_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "base/arena.h"
#include "d/probedesc.h"

enum prov_kind {	/* ORDER PROV_KIND: providers[] in catalog.c */
	PROV_DTRACE,	/* BEGIN, END, ERROR */
	PROV_PROFILE,	/* profile-N: every CPU, every period */
	PROV_TICK,	/* tick-N: one CPU, every period */
	PROV_SYSCALL,	/* syscall:vmlinux:NAME:entry|return */
	PROV_SDT,	/* sdt:GROUP::EVENT, every kernel tracepoint (sdt.c) */
	PROV_PROC,	/* proc:::create ..., on tracepoints (stable.c) */
	PROV_SCHED,	/* sched:::on-cpu ..., on tracepoints (stable.c) */
	PROV_IO,	/* io:::start, done, on block tracepoints (stable.c) */
	PROV_NET,	/* tcp, udp, ip:::send ..., on net and sock tracepoints (net.c) */
	PROV_PID,	/* pidNNN:module:function:entry|return, uprobes (pid.c) */
	PROV_USDT,	/* NAMEpid:module:function:name, <sys/sdt.h> notes (usdt.c) */
	PROV_FBT,	/* fbt:module:function:entry|return, kprobes (fbt.c) */
	PROV_LOCKSTAT,	/* lockstat:::adaptive-block ..., lowered (lockstat.c) */
	PROV_PLOCKSTAT,	/* plockstatNNN:::mutex-acquire ..., lowered (plockstat.c) */
	PROV_VMINFO,	/* vminfo:::as_fault ..., lowered (derived.c) */
	PROV_SYSINFO,	/* sysinfo:::sysread ..., lowered (derived.c) */
	PROV_NKINDS
};

/*
 * How a provider's probes fire: the mechanism the compile driver builds
 * their programs for (driver/compile.c).  A new provider on a mechanism
 * that exists is its own file and one row of providers[] in catalog.c,
 * which names its mechanism; a new mechanism is the driver's, the code
 * generator's and the runtime's work.
 */
enum prov_mech {
	MECH_LOWERED,	/* rewritten into other providers' probes before sema */
	MECH_DTRACE,	/* BEGIN, END, ERROR: run by the consumer */
	MECH_TRACEPOINT, /* a raw tracepoint program of its own per probe */
	MECH_PROFILE,	/* a perf timer on every CPU */
	MECH_TICK,	/* a timer on one CPU */
	MECH_SYSCALL,	/* the one sys_enter/sys_exit program, by number */
	MECH_UPROBE,	/* one uprobe program for all entry (and offset) probes,
			 * one for all returns; sites tell probes apart */
	MECH_USDT,	/* one uprobe program for all USDT sites */
	MECH_KFUNC,	/* kernel functions: fentry/fexit, kprobes, kprobe_multi */
};

/* Its provider's mechanism, and the provider's name ("pid", "fbt"). */
enum prov_mech catalog_mech(enum prov_kind kind);
const char *catalog_prov_name(enum prov_kind kind);

struct probe_arg {
	const char *type;	/* C type as the kernel spells it: "char *", "size_t" */
	const char *name;	/* "buf"; "" when the source gives none */
	/* A stable provider's argument is made from a tracepoint argument:
	 * args[N] is via[(native)argRAW] (via a D library inline array, such
	 * as __lwpsinfo), or (native)argRAW when via is NULL.  native NULL:
	 * args[N] is argN of type `type`. */
	const char *native;
	const char *via;
	int raw;
};

/* Stable probes sharing a tracepoint tell their firings apart. */
enum probe_guard {
	GUARD_NONE,
	GUARD_GROUP_DEAD,	/* sched_process_exit: the process's last thread */
	GUARD_CHILD_PROCESS,	/* argument 1, fork's child, leads its process */
	GUARD_CHILD_THREAD,	/* ... is a thread of its parent's process */
	GUARD_SLEEP,		/* sched_switch: prev blocks (!preempt && prev_state) */
	GUARD_PREEMPT,		/* sched_switch: prev stays runnable */
	GUARD_NO_ARG0,		/* argument 0 is zero (sched_exit_tp: no switch) */
	GUARD_EXEC_ENTER,	/* sys_enter: execve/execveat, every attempt */
	GUARD_EXEC_FAILED,	/* sys_exit: execve/execveat returned an error */
	GUARD_EXEC_EXIT,	/* sys_exit: execve/execveat, whatever it returned */
	GUARD_START_PROCESS,	/* sys_exit: a fork child's first return, in a */
	GUARD_START_THREAD,	/*   new process / a new thread */
	GUARD_NET_IP,		/* an skb (argument 0) holding IPv4 or IPv6 */
	GUARD_NET_TCP,		/* ... a TCP segment */
	GUARD_NET_UDP,		/* ... a UDP datagram */
	GUARD_NET_SYN,		/* ... a TCP SYN without ACK (an active open) */
	GUARD_TCP_SOCK,		/* a struct sock (argument 0) of TCP */
	GUARD_TCP_CONNECTED,	/* inet_sock_set_state: TCP, SYN-SENT -> ESTABLISHED */
	GUARD_TCP_ACCEPTED,	/* ... TCP, SYN-RECEIVED -> ESTABLISHED */
	GUARD_TCP_REFUSED,	/* ... TCP, SYN-SENT -> CLOSED, sk_err ECONNREFUSED */
};

struct usdt_arg;

/* One place a usdt probe fires: a <sys/sdt.h> note.  A probe has one per
 * note naming it from its function (a macro expanded twice, inlining). */
struct usdt_site {
	uint64_t uoffset;		/* the uprobe's offset in the file */
	uint64_t ref_ctr;		/* the semaphore's file offset; 0: none */
	int nargs;			/* up to the first we cannot fetch */
	const struct usdt_arg *args;	/* USDT_ARGS_MAX (spec/spec.h), nargs used */
	const char *argtext;		/* the note's "-4@%edi 8@16(%rsp)" */
	const char *argerr;		/* why args[nargs] cannot be fetched; NULL */
};

struct probe {
	uint32_t id;			/* DTrace probe ID, 1-based, dense */
	enum prov_kind kind;
	const char *prov, *mod, *func, *name;	/* "syscall","vmlinux","read","entry" */
	int sysnr;			/* PROV_SYSCALL: x86-64 number; else -1 */
	const char *tp_group;		/* tracefs event of the probe, when it has one: */
	const char *tp_event;		/*   "syscalls", "sys_enter_newfstat"; else NULL */
	uint64_t period_ns;		/* PROV_PROFILE, PROV_TICK */
	int tp_nargs;			/* tracepoint probes: TP_PROTO's arguments */
	int cur_task;			/* 1 + the tracepoint argument holding the
					 * task pid, execname, curthread... describe
					 * (sched:::on-cpu: next); 0: current */
	int guard;			/* enum probe_guard: when the tracepoint
					 * firing is not this probe's */
	int nargs;			/* valid after catalog__args(): -1 unknown */
	const struct probe_arg *args;	/* nargs entries */
	bool args_loaded;		/* catalog-private: catalog__args() has looked */
	int upid;			/* PROV_PID, PROV_USDT: the process */
	const char *upath;		/*   the ELF file and the uprobe's */
	uint64_t uoffset;		/*   offset in it (usdt: first site's) */
	bool uexe;			/*   the file is the executable (a.out) */
	uint8_t urank;			/* PROV_PID entry/return: the symbol's
					 * rank among aliases (usym.c sym_rank) */
	const char *name_raw;		/* PROV_USDT: the note's spelling of
					 * name ("a__b" for "a-b"), matched too */
	const struct usdt_site *usites;	/* PROV_USDT: nusites, in file order */
	int nusites;
	/* A lowered probe (lockstat, plockstat) is a firing of its base
	 * probe for which the D library inline named guard_inline is true; its
	 * args[] and argN are D library inlines over the base's arguments
	 * (probe_arg.via, raw -1).  Its provider keeps state in D clauses
	 * compiled with the program: pre before its clauses, post after
	 * (one text per provider instance, shared by its probes). */
	const struct probe *base;
	const char *guard_inline;	/* NULL: every firing of base */
	const char *pre, *post;
	/* A lowered probe firing at more than one base: its next site, a
	 * probe of the same ID, names and args[] types, not in the catalog,
	 * with a base, guard, args and texts of its own; a clause is copied
	 * for each site.  NULL: none. */
	const struct probe *alt;
	bool hidden;			/* a base of lowered probes only: matched by
					 * a description naming it exactly, and
					 * never listed */
	bool attach_first;		/* its program is attached before the
					 * others on its tracepoint, which run
					 * in attach order (compile.c) */
};

struct catalog;

/* Enumerates the dtrace, profile and syscall providers.  Finding the
 * syscalls of this kernel may mount tracefs.  Never fails: out of memory
 * aborts, and a kernel that shows neither tracefs nor BTF gets every
 * syscall of the compiled-in table. */
struct catalog *catalog__new(void);
void catalog__free(struct catalog *cat);	/* NULL is fine */

/* Calls fn (when not NULL) for each probe matching pd, in ID order; a
 * negative return from fn stops the walk and is returned.  Otherwise returns
 * the number of probes matched, 0 included. */
int catalog__match(struct catalog *cat, const struct probe_desc *pd,
		   int (*fn)(const struct probe *p, void *arg), void *arg);

/* After a match of zero probes: a sentence saying why, when the catalog
 * knows more than "no such probe" ("tick-1ns: period 1ns is under the
 * 200us minimum"); NULL otherwise.  Valid until the next call. */
const char *catalog__hint(const struct catalog *cat);

const struct probe *catalog__by_id(const struct catalog *cat, uint32_t id);
uint32_t catalog__count(const struct catalog *cat);	/* highest ID */

/* The argument list of p (reading tracefs on first use); returns nargs,
 * -1 when the types cannot be known.  Sets p->nargs and p->args too. */
int catalog__args(struct catalog *cat, const struct probe *p);

/* dtrace -l: the header once, then one row per probe (-lv: with its
 * stability attributes and argument types).  catalog__list() prints the
 * rows of every probe matching pd (NULL: all) and returns how many. */
void catalog__list_header(FILE *out);
void catalog__list_probe(struct catalog *cat, FILE *out, const struct probe *p,
			 bool verbose);
int catalog__list(struct catalog *cat, FILE *out, const struct probe_desc *pd,
		  bool verbose);

/* DTrace's glob: * ? [a-z] [!a-z], backslash quotes the next character.
 * A malformed set ("[abc") matches nothing, as gmatch(3GEN). */
bool catalog_glob_match(const char *pattern, const char *s);

/* "profile-997hz", "tick-1s" -> kind and period; 0 on success, -1 with a
 * reason in *why (a static string) when the name is not one. */
int catalog_parse_profile(const char *name, enum prov_kind *kind,
			  uint64_t *period_ns, const char **why);

/* For providers populating the catalog: adds a copy of tmpl, with the next
 * ID and no arguments loaded yet, and returns it.  The strings tmpl points to
 * are not copied: they must live as long as the catalog (literals, or
 * allocations from catalog_arena()). */
struct probe *catalog_add(struct catalog *cat, const struct probe *tmpl);
struct arena *catalog_arena(struct catalog *cat);
/* For providers whose probes are made on first need (a costly walk):
 * true the first time it is asked for kind in this catalog. */
bool catalog_first_need(struct catalog *cat, enum prov_kind kind);
/* For providers: the sentence catalog__hint() gives if the match under
 * way finds no probe (the last one set wins). */
void catalog_set_hint(struct catalog *cat, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* The pid and usdt providers' state.  catalog__set_target_exec: pid is
 * the -c command, not yet exec'd, whose executable is path (a $PATH name
 * or a path); catalog_target_exec returns it for that pid, else NULL.
 * catalog_pid_module_new: true the first time (kind, pid, path) is asked,
 * kind being PROV_PID or PROV_USDT. */
void catalog__set_target_exec(struct catalog *cat, long pid, const char *path);
const char *catalog_target_exec(const struct catalog *cat, long pid);
bool catalog_pid_module_new(struct catalog *cat, enum prov_kind kind, long pid,
			    const char *path);

#endif /* DSCOPE_CATALOG_H */
