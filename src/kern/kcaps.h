/*
 * kcaps.h -- what this kernel can do, found by trying it.
 *
 * Each capability dscope chooses between mechanisms by is detected once,
 * on first use, by a trial: a tiny program loaded, a link created, a map
 * made, or the kernel's own description of a PMU in sysfs -- never by the
 * kernel's version number, which says nothing about backports or config.
 * The answers are facts about the running kernel, the same for every
 * session: they are kept process-wide, for the life of the process (a
 * few bytes, nothing to free).  Sessions in several threads may ask at
 * once: each answer is read and written atomically, and two threads that
 * both find one untried both try, and get the kernel's one answer.
 *
 * Two test aids:
 * DSCOPE_CAPS_DISABLE=name,name,... makes the named capabilities report
 * absent, so a fallback can be tested on a kernel that does not need it.
 * DSCOPE_CAPS=name,name,... pins the answers: exactly the named ones are
 * present ("sdiv" too, below) and nothing is tried, so that what -S prints
 * is the same on any kernel and for any user (tests/asm).
 */
#ifndef DSCOPE_KCAPS_H
#define DSCOPE_KCAPS_H

#include <stdbool.h>
#include <stdio.h>

enum kcap {			/* ORDER: caps[] in kcaps.c */
	KCAP_UPROBE_MULTI,	/* BPF_TRACE_UPROBE_MULTI links */
	KCAP_UPROBE_PMU,	/* perf_event_open of the uprobe PMU */
	KCAP_UPROBE_REFCTR,	/* its ref_ctr_offset (USDT semaphores) */
	KCAP_PERF_LINK,		/* BPF_LINK_CREATE on a perf event (cookies) */
	KCAP_ATTACH_COOKIE,	/* bpf_get_attach_cookie */
	KCAP_ITER_NUM,		/* bpf_iter_num_new/next/destroy kfuncs */
	KCAP_LOOP,		/* bpf_loop */
	KCAP_RAW_TP,		/* raw tracepoints */
	KCAP_TP_BTF,		/* BTF-typed raw tracepoints (tp_btf) */
	KCAP_FENTRY,		/* TRACING fentry programs on a trampoline */
	KCAP_FENTRY_COOKIE,	/* ... with bpf_get_func_arg and link cookies (6.0+) */
	KCAP_KPROBE,		/* the kprobe PMU */
	KCAP_KPROBE_MULTI,	/* BPF_TRACE_KPROBE_MULTI links */
	KCAP_RINGBUF,		/* BPF_MAP_TYPE_RINGBUF */
	KCAP_WRITE_USER,	/* bpf_probe_write_user (copyout) */
	KCAP_FIND_VMA,		/* bpf_find_vma */
	KCAP_TASK_STACK,	/* bpf_get_task_stack */
	KCAP_SLEEP_UPROBE,	/* sleepable uprobe programs as cg makes them */
	KCAP_COPY_STR,		/* the bpf_copy_from_user_str kfunc */
	KCAP_ATOMIC_FETCH,	/* BPF_FETCH atomics, BPF_CMPXCHG (5.12+) */
	KCAP_PERF_NOPREALLOC,	/* perf_event programs on NO_PREALLOC hash maps */
	KCAP_TASK_PT_REGS,	/* bpf_get_current_task_btf, bpf_task_pt_regs (5.15) */
	KCAP_GLOBAL_FUNC,	/* global functions, checked once (5.6) */
	KCAP_COUNT
};

/* Whether the kernel has c: tried on the first call, then remembered. */
bool kcaps_has(enum kcap c);

/* Every capability, yes or no, with what dscope does without it. */
void kcaps_print(FILE *out);

/* Whether the kernel's verifier takes signed division and modulo (BPF
 * cpu v4): tried once, by loading a three-instruction program; without
 * the rights to load anything, assumed.  Named "sdiv" in DSCOPE_CAPS and
 * DSCOPE_CAPS_DISABLE; not one of the capabilities kcaps_print lists. */
bool load_has_sdiv(void);

#endif /* DSCOPE_KCAPS_H */
