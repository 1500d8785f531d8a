/*
 * derived.c -- the stable probes Linux has no tracepoint of the same name
 * for, each lowered (catalog.h) onto the kernel event that shows it:
 * sched:::enqueue, dequeue, tick, change-pri and surrender; io:::wait-start
 * and wait-done; lockstat's acquire and release probes; tcp:::accept-refused
 * (net.c says why); proc:::signal-clear,
 * signal-discard and fault; and the vminfo and
 * sysinfo providers, DTrace's kernel statistics counters, each firing
 * where Linux counts the same thing, with arg0 the increment.
 *
 * A probe has up to three ways of being served, tried in order, and takes
 * the first this kernel offers: a way is a list of sites, and is offered
 * when its first site is (later sites are the same event reached another
 * way, attached where the kernel has them).  A site is a tracepoint (bare
 * or not, attached as a raw tracepoint: offered when BTF has its
 * btf_trace_EVENT) or the entry of a kernel function (offered when BTF
 * has the function and the kernel can attach fentry or kprobes: kcaps.c
 * tries them).  Tracepoints come first: they cost least and never move.
 * A probe no way of which is offered is still in the catalog, matched by
 * nothing, and derived_missing() says in one sentence what the kernel
 * lacks; dscope -vV lists what serves each probe (derived_print).
 *
 * Each site has a guard (a D inline: the firings of the event that are
 * this probe's) and args[], D inlines over the site's own arguments.  The
 * inlines are in each provider's text (pre), compiled only with a program
 * using the provider, so a program that does not pays nothing for them.
 * The probes are made the first time a description may name one, as the
 * sdt provider's are: deciding costs BTF lookups and trial loads.
 *
 * What the events are, and why (dscope(1) says the same to users):
 *  - surrender is a sched_yield(2) (raw_syscalls:sys_enter, number 24),
 *    as Oracle's port has it: the thread gives up its CPU.
 *  - enqueue/dequeue are the scheduling classes' enqueue_task_* and
 *    dequeue_task_* (fair, rt, dl, stop): every change of a run queue,
 *    with args[2] the queue's CPU and enqueue's args[3] ENQUEUE_HEAD
 *    (0x10, the same value since 2.6.25).  No tracepoint names the task:
 *    sched_update_nr_running_tp carries only the count.
 *  - tick is scheduler_tick (sched_tick from 6.10): the clock tick's
 *    accounting, in the interrupted thread.
 *  - change-pri is set_user_nice (setpriority(2), nice(2)) when the nice
 *    value changes, args[2] the new priority in pr_pri's scale (nice +
 *    120), and sched_pi_setprio, priority inheritance's change.  A
 *    change by sched_setscheduler(2) is not seen.
 *  - signal-discard is signal_generate with result TRACE_SIGNAL_IGNORED;
 *    signal-clear a sigtimedwait(2) family call returning a signal (the
 *    pending signal it took); fault a signal_generate of SIGILL, SIGTRAP,
 *    SIGBUS, SIGFPE or SIGSEGV that the kernel raises (si_code > 0) at
 *    the thread itself: the machine fault behind it, args[0] the
 *    <sys/fault.h> number DTrace gives (FLTBOUNDS 6 for an unmapped
 *    address, FLTACCESS 5 for a protection fault, ...).
 *  - vminfo: as_fault is every page fault on a user address (user mode's
 *    exceptions:page_fault_user, and the kernel's own on a user address),
 *    kernel_asflt the latter, prot_fault those on a present page
 *    (X86_PF_PROT), pgrrun kswapd woken; maj_fault, by fbt, is the
 *    fault handlers' returns with VM_FAULT_MAJOR, set where Linux counts
 *    a major fault (PGMAJFAULT: a page read for filemap_fault, swapped in
 *    by do_swap_page or shmem_fault), once for a fault that is retried
 *    after its read where the task's maj_flt counts the retry;
 *    cow_fault, by fbt, is wp_page_copy with a page to copy (not the
 *    zero page): a write to a private page shared since fork() or read
 *    from a file first.  A first write to a private file page copies it
 *    in do_cow_fault, which is inlined: not seen.  scan and dfree are
 *    reclaim's scans and frees of an inactive list (anonfree and fsfree
 *    split the latter by list), at the tracepoints beside Linux's pgscan
 *    and pgsteal counts.  By fbt: zfod is a user page allocated zeroed
 *    (__GFP_ZERO: do_anonymous_page's, or wp_page_copy's for the zero
 *    page), pgin/pgout and pgpgin/pgpgout submit_bio of a read or a
 *    write, where Linux counts pgpgin and pgpgout (every block I/O, not
 *    only paging's), swapin/swapout a page read from or written to swap
 *    (Linux never swaps whole processes: pages, as pswpin and pswpout),
 *    with pgswapin/pgswapout and anonpgin/anonpgout the same events.
 *  - sysinfo: sysread/syswrite the read and write system calls (read,
 *    pread64, readv, preadv, preadv2 and their writes), readch/writech
 *    their successful returns with arg0 the bytes; pswitch every context
 *    switch, inv_swtch the involuntary ones (Linux's nivcsw: preempted, or
 *    still runnable), idlethread a switch to the idle task; sysfork a new
 *    process, nthreads a new thread or process, sysexec an exec attempt;
 *    msg and sema the System V message and semaphore calls; xcalls a
 *    cross-CPU call (ipi_send_cpu, ipi_send_cpumask); syscall every
 *    system call.
 *  - lockstat's adaptive-acquire and rw-acquire are the returns of the
 *    kernel's mutex and rw_semaphore lock calls that took the lock (all
 *    of them but a failed trylock, or a killable or interruptible one
 *    that returned an error), their releases the unlock calls' entries:
 *    the fast paths are inline and have no event.  The lock is the
 *    call's first argument, kept from its entry.
 *  - io:::wait-start and wait-done are submit_bio_wait's entry and
 *    return: Linux's biowait, a thread submitting a bio and sleeping
 *    until it completes (flushes, file systems' metadata, swap), with the
 *    bio in hand for args[].  io_schedule() and folio_wait_bit_common(),
 *    where the page cache waits for a read, would see more waits but not
 *    the I/O waited for; sched_switch's prev->in_iowait likewise.
 * Not offered, with no Linux event of the same meaning: sysvfork (a
 * vfork is not told apart at sched_process_fork), and the Solaris-only
 * counters; derived_why_none() says why of each of vminfo's.
 */
#include "prov/derived.h"

#include <stdlib.h>
#include <string.h>

#include "base/arena.h"
#include "kern/kcaps.h"
#include "kern/ktypes.h"
#include "prov/fbt.h"
#include "prov/sdt.h"

#define TASK_ARGS(pfx) \
	{ "lwpsinfo_t *", "", NULL, pfx "lwps", -1 }, \
	{ "psinfo_t *", "", NULL, pfx "ps", -1 }
#define ONE { "uint64_t", "", NULL, "__dv_one", -1 }

static const struct probe_arg cur_args[] = { TASK_ARGS("__dv_cur_") };
static const struct probe_arg enq_args[] = {
	TASK_ARGS("__dv_q_"), { "cpuinfo_t *", "", NULL, "__dv_q_cpu", -1 },
	{ "int", "", NULL, "__dv_q_head", -1 },
};
static const struct probe_arg deq_args[] = {
	TASK_ARGS("__dv_q_"), { "cpuinfo_t *", "", NULL, "__dv_q_cpu", -1 },
};
static const struct probe_arg nice_args[] = {
	TASK_ARGS("__dv_t0_"), { "int", "", NULL, "__dv_nice_pri", -1 },
};
static const struct probe_arg pi_args[] = {
	TASK_ARGS("__dv_t0_"), { "int", "", NULL, "__dv_pi_pri", -1 },
};
static const struct probe_arg discard_args[] = {
	TASK_ARGS("__dv_sig_"), { "int", "", NULL, "__dv_sig", -1 },
};
static const struct probe_arg clear_args[] = {
	{ "int", "", NULL, "__dv_ret", -1 },
};
static const struct probe_arg fault_args[] = {
	{ "int", "", NULL, "__dv_flt", -1 },
	{ "struct kernel_siginfo *", "", NULL, "__dv_siginfo", -1 },
};
static const struct probe_arg one_args[] = { ONE };
#define LOCK_ARG(type, via) { type, "", NULL, via, -1 }
#define RWSEM_ARGS(via, kind) \
	LOCK_ARG("struct rw_semaphore *", via), LOCK_ARG("int", kind)
static const struct probe_arg mutex_args[] = {
	LOCK_ARG("struct mutex *", "__dv_mutex") };
static const struct probe_arg mutex_held_args[] = {
	LOCK_ARG("struct mutex *", "__dv_mutex_held") };
static const struct probe_arg rd_args[] = { RWSEM_ARGS("__dv_rwsem", "__dv_reader") };
static const struct probe_arg wr_args[] = { RWSEM_ARGS("__dv_rwsem", "__dv_writer") };
static const struct probe_arg rd_held_args[] = {
	RWSEM_ARGS("__dv_rwsem_held", "__dv_reader") };
static const struct probe_arg wr_held_args[] = {
	RWSEM_ARGS("__dv_rwsem_held", "__dv_writer") };
static const struct probe_arg downgrade_args[] = {
	LOCK_ARG("struct rw_semaphore *", "__dv_rwsem_held") };
static const struct probe_arg rst_args[] = {
	{ "pktinfo_t *", "", NULL, "__dv_rst_pkt", -1 },
	{ "csinfo_t *", "", NULL, "__dv_rst_cs", -1 },
	{ "ipinfo_t *", "", NULL, "__dv_rst_ip", -1 },
	{ "tcpsinfo_t *", "", NULL, "__dv_rst_tcps", -1 },
	{ "tcpinfo_t *", "", NULL, "__dv_rst_tcp", -1 },
};
static const struct probe_arg bio_args[] = {
	{ "bufinfo_t *", "", NULL, "__dv_bio_buf", -1 },
	{ "devinfo_t *", "", NULL, "__dv_bio_dev", -1 },
	{ "fileinfo_t *", "", NULL, "__dv_nofile", -1 },
};
static const struct probe_arg bio_done_args[] = {
	{ "bufinfo_t *", "", NULL, "__dv_bio_buf_held", -1 },
	{ "devinfo_t *", "", NULL, "__dv_bio_dev_held", -1 },
	{ "fileinfo_t *", "", NULL, "__dv_nofile", -1 },
};
static const struct probe_arg bytes_args[] = {
	{ "uint64_t", "", NULL, "__dv_ret", -1 },
};
static const struct probe_arg bio_pages_args[] = {
	{ "uint64_t", "", NULL, "__dv_bio_pages", -1 },
};
static const struct probe_arg order_pages_args[] = {
	{ "uint64_t", "", NULL, "__dv_order_pages", -1 },
};
static const struct probe_arg freed_args[] = {
	{ "uint64_t", "", NULL, "__dv_freed_pages", -1 },
};
static const struct probe_arg scanned_args[] = {
	{ "uint64_t", "", NULL, "__dv_scanned", -1 },
};
static const struct probe_arg folio_pages_args[] = {
	{ "uint64_t", "", NULL, "__dv_folio_pages", -1 },
};

/*
 * The inlines of the guards and args[], over each site's raw arguments:
 *	sys_enter(regs, id)  sys_exit(regs, ret)
 *	enqueue_task_*(rq, p, flags)  dequeue_task_*(rq, p, flags)
 *	set_user_nice(p, nice)  sched_pi_setprio(tsk, pi_task)
 *	signal_generate(sig, info, task, group, result)
 *	page_fault_user/kernel(address, regs, error_code)
 *	sched_switch(preempt, prev, next, prev_state)
 *	sched_process_fork(parent, child)
 * sched_switch has prev_state from 5.18; before, its TP_PROTO stops at
 * next (BTF says which: inv_swtch's first way wants four arguments),
 * and prev's own state word is the value __schedule read, unchanged at
 * the tracepoint except where a pending signal kept prev awake: that
 * switch __schedule counts voluntary and has set prev back to running,
 * so it reads as involuntary here.
 */
static const char derived_pre[] =
	"self uint64_t __dv_a0;\n"
	"inline uint64_t __dv_one = 1;\n"
	"inline uint64_t __dv_ret = arg1;\n"
	"inline lwpsinfo_t *__dv_cur_lwps = __lwpsinfo[curthread];\n"
	"inline psinfo_t *__dv_cur_ps = __psinfo[curthread];\n"
	"inline lwpsinfo_t *__dv_q_lwps = __lwpsinfo[(struct task_struct *)arg1];\n"
	"inline psinfo_t *__dv_q_ps = __psinfo[(struct task_struct *)arg1];\n"
	"inline cpuinfo_t *__dv_q_cpu = xlate <cpuinfo_t *> (((struct rq *)arg0)->cpu);\n"
	"inline int __dv_q_head = (arg2 & 0x10) != 0;\n"
	"inline lwpsinfo_t *__dv_t0_lwps = __lwpsinfo[(struct task_struct *)arg0];\n"
	"inline psinfo_t *__dv_t0_ps = __psinfo[(struct task_struct *)arg0];\n"
	"inline int __dv_nice_pri = (int)arg1 + 120;\n"
	"inline int __dv_nice_changes = (long)arg1 >= -20 && (long)arg1 <= 19 &&\n"
	"    ((struct task_struct *)arg0)->static_prio - 120 != (long)arg1;\n"
	"inline int __dv_pi_pri = arg1 != 0 &&\n"
	"    ((struct task_struct *)arg1)->prio < ((struct task_struct *)arg0)->normal_prio ?\n"
	"    ((struct task_struct *)arg1)->prio : ((struct task_struct *)arg0)->normal_prio;\n"
	"inline lwpsinfo_t *__dv_sig_lwps = __lwpsinfo[(struct task_struct *)arg2];\n"
	"inline psinfo_t *__dv_sig_ps = __psinfo[(struct task_struct *)arg2];\n"
	"inline int __dv_sig = (int)arg0;\n"
	"inline int __dv_sig_ignored = arg4 == 1;\n"
	"inline int __dv_is_fault = (arg0 == 4 || arg0 == 5 || arg0 == 7 ||\n"
	"    arg0 == 8 || arg0 == 11) && arg1 != 0 && arg1 != 1 &&\n"
	"    (struct task_struct *)arg2 == curthread &&\n"
	"    ((struct kernel_siginfo *)arg1)->si_code > 0;\n"
	"inline int __dv_code = ((struct kernel_siginfo *)arg1)->si_code;\n"
	/* <sys/fault.h>: FLTILL 1, FLTPRIV 2, FLTBPT 3, FLTTRACE 4,
	 * FLTACCESS 5, FLTBOUNDS 6, FLTIOVF 7, FLTIZDIV 8, FLTFPE 9 */
	"inline int __dv_flt =\n"
	"    arg0 == 4 ? (__dv_code == 5 ? 2 : 1) :\n"
	"    arg0 == 5 ? (__dv_code == 2 ? 4 : 3) :\n"
	"    arg0 == 8 ? (__dv_code == 1 ? 8 : __dv_code == 2 ? 7 : 9) :\n"
	"    arg0 == 11 && __dv_code == 1 ? 6 : 5;\n"
	"inline struct kernel_siginfo *__dv_siginfo = (struct kernel_siginfo *)arg1;\n"
	"inline long __dv_exit_nr = ((struct pt_regs *)arg0)->orig_ax;\n"
	"inline int __dv_sigwait_took = (__dv_exit_nr == 128) && (long)arg1 > 0;\n"
	"inline int __dv_is_yield = arg1 == 24;\n"
	"inline int __dv_is_read = arg1 == 0 || arg1 == 17 || arg1 == 19 ||\n"
	"    arg1 == 295 || arg1 == 327;\n"
	"inline int __dv_is_write = arg1 == 1 || arg1 == 18 || arg1 == 20 ||\n"
	"    arg1 == 296 || arg1 == 328;\n"
	"inline int __dv_read_done = (long)arg1 >= 0 && (__dv_exit_nr == 0 ||\n"
	"    __dv_exit_nr == 17 || __dv_exit_nr == 19 || __dv_exit_nr == 295 ||\n"
	"    __dv_exit_nr == 327);\n"
	"inline int __dv_write_done = (long)arg1 >= 0 && (__dv_exit_nr == 1 ||\n"
	"    __dv_exit_nr == 18 || __dv_exit_nr == 20 || __dv_exit_nr == 296 ||\n"
	"    __dv_exit_nr == 328);\n"
	"inline int __dv_is_exec = arg1 == 59 || arg1 == 322;\n"
	"inline int __dv_is_msg = arg1 >= 68 && arg1 <= 71;\n"
	"inline int __dv_is_sema = (arg1 >= 64 && arg1 <= 66) || arg1 == 220;\n"
	"inline int __dv_new_process = ((struct task_struct *)arg1)->pid ==\n"
	"    ((struct task_struct *)arg1)->tgid;\n"
	"inline int __dv_involuntary = (arg0 & 0xff) != 0 || (arg3 & 0xffffffff) == 0;\n"
	"inline int __dv_involuntary_task = (arg0 & 0xff) != 0 ||\n"
	"    __task_state((struct task_struct *)arg1) == 0;\n"
	"inline int __dv_to_idle = ((struct task_struct *)arg2)->pid == 0;\n"
	"inline int __dv_user_addr = arg0 < 0x800000000000;\n"
	"inline int __dv_prot = (arg2 & 1) != 0;\n"
	"inline int __dv_kprot = __dv_user_addr && __dv_prot;\n"
	/* the lock calls' entries, (lock); their returns, arg1 the result:
	 * 0 from a killable or interruptible lock that took the lock, 1 from
	 * a trylock that did */
	"inline struct mutex *__dv_mutex = (struct mutex *)arg0;\n"
	"inline struct mutex *__dv_mutex_held = (struct mutex *)self->__dv_a0;\n"
	"inline struct rw_semaphore *__dv_rwsem = (struct rw_semaphore *)arg0;\n"
	"inline struct rw_semaphore *__dv_rwsem_held =\n"
	"    (struct rw_semaphore *)self->__dv_a0;\n"
	"inline int __dv_reader = RW_READER;\n"
	"inline int __dv_writer = RW_WRITER;\n"
	"inline int __dv_held = self->__dv_a0 != 0;\n"
	"inline int __dv_took = self->__dv_a0 != 0 && (int)arg1 == 0;\n"
	"inline int __dv_try_took = self->__dv_a0 != 0 && (int)arg1 == 1;\n"
	/* tcp_send_reset(sk, skb, reason), tcp_v4_send_reset(sk, skb) and
	 * tcp_v6_send_reset(sk, skb): no socket, and skb a SYN without ACK */
	"inline struct sk_buff *__dv_skb = (struct sk_buff *)arg1;\n"
	"inline int __dv_refused = arg0 == 0 && arg1 != 0 &&\n"
	"    (((uint8_t *)__dv_skb->head + __dv_skb->transport_header)[13] &\n"
	"    (TH_SYN | TH_ACK | TH_RST)) == TH_SYN;\n"
	"inline pktinfo_t *__dv_rst_pkt = xlate <pktinfo_t *> ((struct sk_buff *)0);\n"
	"inline csinfo_t *__dv_rst_cs = xlate <csinfo_t *> ((struct sock *)0);\n"
	"inline ipinfo_t *__dv_rst_ip = xlate <ipinfo_t *> ((struct __tcp_rst *)arg1);\n"
	"inline tcpsinfo_t *__dv_rst_tcps = xlate <tcpsinfo_t *> ((struct __tcp_rst *)arg1);\n"
	"inline tcpinfo_t *__dv_rst_tcp = xlate <tcpinfo_t *> ((struct __tcp_rst *)arg1);\n"
	/* a fault handler's return: VM_FAULT_MAJOR (0x4) where it counted
	 * PGMAJFAULT */
	"inline int __dv_major = self->__dv_a0 != 0 && (arg1 & 4) != 0;\n"
	/* wp_page_copy(vmf): a write to a page mapped read-only, copied;
	 * none for the shared zero page (a zero-fill, not a copy) */
	"inline int __dv_cow = ((struct vm_fault *)arg0)->page != 0;\n"
	/* submit_bio_wait(bio), entry and return */
	"inline bufinfo_t *__dv_bio_buf = xlate <bufinfo_t *> ((struct bio *)arg0);\n"
	"inline devinfo_t *__dv_bio_dev = xlate <devinfo_t *> ((struct bio *)arg0);\n"
	"inline bufinfo_t *__dv_bio_buf_held =\n"
	"    xlate <bufinfo_t *> ((struct bio *)self->__dv_a0);\n"
	"inline devinfo_t *__dv_bio_dev_held =\n"
	"    xlate <devinfo_t *> ((struct bio *)self->__dv_a0);\n"
	"inline fileinfo_t *__dv_nofile = xlate <fileinfo_t *> ((struct file *)0);\n"
	/* submit_bio(bio), where Linux counts PGPGIN and PGPGOUT: a bio of
	 * REQ_OP_READ (0) or REQ_OP_WRITE (1), the op in bi_opf's low byte;
	 * its pages rounded up, as illumos' btopr() of the I/O's length */
	"inline int __dv_bio_read = (((struct bio *)arg0)->bi_opf & 0xff) == 0;\n"
	"inline int __dv_bio_write = (((struct bio *)arg0)->bi_opf & 0xff) == 1;\n"
	"inline uint64_t __dv_bio_pages =\n"
	"    (((struct bio *)arg0)->bi_iter.bi_size + 4095) / 4096;\n"
	/* mm_vmscan_lru_shrink_inactive(nid, nr_scanned, nr_reclaimed,
	 * stat, priority, file): the pages reclaim freed from an inactive
	 * list, where Linux counts them (pgsteal_anon, pgsteal_file) */
	"inline uint64_t __dv_freed_pages = arg2;\n"
	"inline int __dv_freed = arg2 != 0;\n"
	"inline int __dv_freed_anon = arg2 != 0 && arg5 == 0;\n"
	"inline int __dv_freed_file = arg2 != 0 && arg5 != 0;\n"
	/* mm_vmscan_lru_isolate(zoneidx, order, nr_requested, nr_scanned,
	 * nr_skipped, nr_taken, [isolate_mode,] lru): the pages scanned off
	 * an inactive list (LRU_INACTIVE_ANON 0, LRU_INACTIVE_FILE 2), where
	 * Linux counts pgscan; an active list's scan is its refill */
	"inline uint64_t __dv_scanned = arg3;\n"
	"inline int __dv_scan8 = arg3 != 0 && (arg7 == 0 || arg7 == 2);\n"
	"inline int __dv_scan7 = arg3 != 0 && (arg6 == 0 || arg6 == 2);\n"
	/* vma_alloc_folio(gfp, order, ...): a user page asked for zeroed
	 * (__GFP_ZERO, 0x100 in every kernel's gfp bits), 1 << order pages */
	"inline int __dv_zeroed = (arg0 & 0x100) != 0;\n"
	"inline uint64_t __dv_order_pages = 1 << arg1;\n";

/* A site: a tracepoint (group, event), a function's entry (fn) or its
 * return (fn, ret).  At a return, the function's first argument is
 * self->__dv_a0, kept from its entry by a clause of the site's own (ret_text),
 * and arg1 is the value returned. */
struct site {
	const char *group, *event, *fn;
	const char *guard;		/* NULL: every firing */
	const struct probe_arg *args;
	int nargs;
	bool ret;
	int tp_min;			/* a tracepoint: the fewest arguments
					 * of the form that is this event */
	bool folio;			/* arg0 a folio or its head page:
					 * args[] from folio_pre() */
};

#define MAXSITES 8
#define MAXWAYS 3

#define ARGS(v) v, (int)(sizeof(v) / sizeof(v[0]))
#define TP(g, e, guard, args) { g, e, NULL, guard, ARGS(args), false, 0 }
#define TPN(g, e, n, guard, args) { g, e, NULL, guard, ARGS(args), false, n }
#define FN(f, guard, args) { NULL, NULL, f, guard, ARGS(args), false, 0 }
#define FNRET(f, guard, args) { NULL, NULL, f, guard, ARGS(args), true, 0 }
#define FOLIO(f) { NULL, NULL, f, NULL, ARGS(folio_pages_args), false, 0, true }
#define SYS_ENTER(guard, args) TP("raw_syscalls", "sys_enter", guard, args)
#define SYS_EXIT(guard, args) TP("raw_syscalls", "sys_exit", guard, args)
#define SWITCH(guard) TP("sched", "sched_switch", guard, one_args)
#define SHRINK(guard) \
	TP("vmscan", "mm_vmscan_lru_shrink_inactive", guard, freed_args)

static const struct derived {
	enum prov_kind kind;
	const char *name;
	struct site ways[MAXWAYS][MAXSITES];
} derived[] = {
	{ PROV_SCHED, "change-pri", { {
		FN("set_user_nice", "__dv_nice_changes", nice_args),
		TP("sched", "sched_pi_setprio", NULL, pi_args) } } },
	{ PROV_SCHED, "dequeue", { {
		FN("dequeue_task_fair", NULL, deq_args),
		FN("dequeue_task_rt", NULL, deq_args),
		FN("dequeue_task_dl", NULL, deq_args),
		FN("dequeue_task_stop", NULL, deq_args) } } },
	{ PROV_SCHED, "enqueue", { {
		FN("enqueue_task_fair", NULL, enq_args),
		FN("enqueue_task_rt", NULL, enq_args),
		FN("enqueue_task_dl", NULL, enq_args),
		FN("enqueue_task_stop", NULL, enq_args) } } },
	{ PROV_NET, "accept-refused", { {
		TPN("tcp", "tcp_send_reset", 3, "__dv_refused", rst_args) }, {
		FN("tcp_v4_send_reset", "__dv_refused", rst_args),
		FN("tcp_v6_send_reset", "__dv_refused", rst_args) } } },
	{ PROV_SCHED, "surrender", { { SYS_ENTER("__dv_is_yield", cur_args) } } },
	{ PROV_SCHED, "tick", { { FN("sched_tick", NULL, cur_args) },
				{ FN("scheduler_tick", NULL, cur_args) } } },
	{ PROV_IO, "wait-done", { {
		FNRET("submit_bio_wait", "__dv_held", bio_done_args) } } },
	{ PROV_IO, "wait-start", { {
		FN("submit_bio_wait", NULL, bio_args) } } },
	{ PROV_LOCKSTAT, "adaptive-acquire", { {
		FNRET("mutex_lock", "__dv_held", mutex_held_args),
		FNRET("mutex_lock_io", "__dv_held", mutex_held_args),
		FNRET("mutex_lock_interruptible", "__dv_took", mutex_held_args),
		FNRET("mutex_lock_killable", "__dv_took", mutex_held_args),
		FNRET("mutex_trylock", "__dv_try_took", mutex_held_args) } } },
	{ PROV_LOCKSTAT, "adaptive-release", { {
		FN("mutex_unlock", NULL, mutex_args) } } },
	{ PROV_LOCKSTAT, "rw-acquire", { {
		FNRET("down_read", "__dv_held", rd_held_args),
		FNRET("down_write", "__dv_held", wr_held_args),
		FNRET("down_read_killable", "__dv_took", rd_held_args),
		FNRET("down_read_interruptible", "__dv_took", rd_held_args),
		FNRET("down_write_killable", "__dv_took", wr_held_args),
		FNRET("down_read_trylock", "__dv_try_took", rd_held_args),
		FNRET("down_write_trylock", "__dv_try_took", wr_held_args) } } },
	{ PROV_LOCKSTAT, "rw-downgrade", { {
		FNRET("downgrade_write", "__dv_held", downgrade_args) } } },
	{ PROV_LOCKSTAT, "rw-release", { {
		FN("up_read", NULL, rd_args),
		FN("up_write", NULL, wr_args) } } },
	{ PROV_PROC, "fault", { {
		TP("signal", "signal_generate", "__dv_is_fault", fault_args) } } },
	{ PROV_PROC, "signal-clear", { {
		SYS_EXIT("__dv_sigwait_took", clear_args) } } },
	{ PROV_PROC, "signal-discard", { {
		TP("signal", "signal_generate", "__dv_sig_ignored", discard_args) } } },
	{ PROV_VMINFO, "anonfree", { { SHRINK("__dv_freed_anon") } } },
	{ PROV_VMINFO, "anonpgin", { { FOLIO("swap_read_folio") },
				     { FOLIO("swap_readpage") } } },
	{ PROV_VMINFO, "anonpgout", { { FOLIO("__swap_writepage") } } },
	{ PROV_VMINFO, "as_fault", { {
		TP("exceptions", "page_fault_user", NULL, one_args),
		TP("exceptions", "page_fault_kernel", "__dv_user_addr", one_args) } } },
	{ PROV_VMINFO, "cow_fault", { {
		FN("wp_page_copy", "__dv_cow", one_args) } } },
	{ PROV_VMINFO, "dfree", { { SHRINK("__dv_freed") } } },
	{ PROV_VMINFO, "fsfree", { { SHRINK("__dv_freed_file") } } },
	{ PROV_VMINFO, "kernel_asflt", { {
		TP("exceptions", "page_fault_kernel", "__dv_user_addr", one_args) } } },
	{ PROV_VMINFO, "maj_fault", { {
		FNRET("filemap_fault", "__dv_major", one_args),
		FNRET("do_swap_page", "__dv_major", one_args),
		FNRET("shmem_fault", "__dv_major", one_args) } } },
	{ PROV_VMINFO, "pgin", { { FN("submit_bio", "__dv_bio_read", one_args) } } },
	{ PROV_VMINFO, "pgout", { { FN("submit_bio", "__dv_bio_write", one_args) } } },
	{ PROV_VMINFO, "pgpgin", { {
		FN("submit_bio", "__dv_bio_read", bio_pages_args) } } },
	{ PROV_VMINFO, "pgpgout", { {
		FN("submit_bio", "__dv_bio_write", bio_pages_args) } } },
	{ PROV_VMINFO, "pgrrun", { {
		TP("vmscan", "mm_vmscan_kswapd_wake", NULL, one_args) } } },
	{ PROV_VMINFO, "pgswapin", { { FOLIO("swap_read_folio") },
				     { FOLIO("swap_readpage") } } },
	{ PROV_VMINFO, "pgswapout", { { FOLIO("__swap_writepage") } } },
	{ PROV_VMINFO, "prot_fault", { {
		TP("exceptions", "page_fault_user", "__dv_prot", one_args),
		TP("exceptions", "page_fault_kernel", "__dv_kprot", one_args) } } },
	{ PROV_VMINFO, "scan", {
		{ TPN("vmscan", "mm_vmscan_lru_isolate", 8, "__dv_scan8", scanned_args) },
		{ TPN("vmscan", "mm_vmscan_lru_isolate", 7, "__dv_scan7", scanned_args) } } },
	{ PROV_VMINFO, "swapin", { { FOLIO("swap_read_folio") },
				   { FOLIO("swap_readpage") } } },
	{ PROV_VMINFO, "swapout", { { FOLIO("__swap_writepage") } } },
	{ PROV_VMINFO, "zfod", {
		{ FN("vma_alloc_folio_noprof", "__dv_zeroed", order_pages_args) },
		{ FN("vma_alloc_folio", "__dv_zeroed", order_pages_args) },
		{ FN("alloc_pages_vma", "__dv_zeroed", order_pages_args) } } },
	{ PROV_SYSINFO, "idlethread", { { SWITCH("__dv_to_idle") } } },
	{ PROV_SYSINFO, "inv_swtch", {
		{ TPN("sched", "sched_switch", 4, "__dv_involuntary", one_args) },
		{ SWITCH("__dv_involuntary_task") } } },
	{ PROV_SYSINFO, "msg", { { SYS_ENTER("__dv_is_msg", one_args) } } },
	{ PROV_SYSINFO, "nthreads", { {
		TP("sched", "sched_process_fork", NULL, one_args) } } },
	{ PROV_SYSINFO, "pswitch", { { SWITCH(NULL) } } },
	{ PROV_SYSINFO, "readch", { { SYS_EXIT("__dv_read_done", bytes_args) } } },
	{ PROV_SYSINFO, "sema", { { SYS_ENTER("__dv_is_sema", one_args) } } },
	{ PROV_SYSINFO, "syscall", { { SYS_ENTER(NULL, one_args) } } },
	{ PROV_SYSINFO, "sysexec", { { SYS_ENTER("__dv_is_exec", one_args) } } },
	{ PROV_SYSINFO, "sysfork", { {
		TP("sched", "sched_process_fork", "__dv_new_process", one_args) } } },
	{ PROV_SYSINFO, "sysread", { { SYS_ENTER("__dv_is_read", one_args) } } },
	{ PROV_SYSINFO, "syswrite", { { SYS_ENTER("__dv_is_write", one_args) } } },
	{ PROV_SYSINFO, "writech", { { SYS_EXIT("__dv_write_done", bytes_args) } } },
	{ PROV_SYSINFO, "xcalls", { {
		TP("ipi", "ipi_send_cpu", NULL, one_args),
		TP("ipi", "ipi_send_cpumask", NULL, one_args) } } },
};

#define NDERIVED (sizeof(derived) / sizeof(derived[0]))

static bool fbt_attachable(void)
{
	return kcaps_has(KCAP_FENTRY) || kcaps_has(KCAP_KPROBE);
}

/* Whether this kernel has the site: BTF says, and for a function, the
 * kernel can attach to one. */
static bool site_offered(const struct site *s)
{
	if (!s->group && !s->fn)
		return false;
	if (s->event)
		return sdt_tp_nargs(s->event) >= s->tp_min;
	return ktype_func_id(s->fn) > 0 && fbt_attachable();
}

static const char *prov_of(enum prov_kind k)
{
	return k == PROV_SCHED ? "sched" : k == PROV_PROC ? "proc"
	       : k == PROV_IO ? "io" : k == PROV_LOCKSTAT ? "lockstat"
	       : k == PROV_NET ? "tcp"
	       : k == PROV_VMINFO ? "vminfo" : "sysinfo";
}

/* The way of row r this kernel offers, or -1. */
static int way_offered(const struct derived *r)
{
	for (int w = 0; w < MAXWAYS; w++)
		if (site_offered(&r->ways[w][0]))
			return w;
	return -1;
}

/* The hidden probes the sites fire at, one per event or function
 * boundary in the catalog, shared by every probe lowered onto it (made in
 * one go); and for a return, the text of the clauses that keep the
 * function's first argument from its entry to its return. */
struct bases {
	const char *key[64];		/* the event, or the function */
	bool ret[64];			/*   and which end of it */
	struct probe *p[64];
	const char *ret_text[64];
	int n;
};

static struct probe *fn_base(struct catalog *cat, const char *fn, bool ret)
{
	return catalog_add(cat, &(struct probe){ .kind = PROV_FBT,
		.prov = "derived", .mod = "vmlinux", .func = fn,
		.name = ret ? "return" : "entry", .sysnr = -1, .hidden = true });
}

static int site_base(struct catalog *cat, struct bases *b, const struct site *s)
{
	const char *key = s->event ? s->event : s->fn;
	struct probe *p;
	int i;

	for (i = 0; i < b->n; i++)
		if (strcmp(b->key[i], key) == 0 && b->ret[i] == s->ret)
			return i;
	if (s->event)
		p = catalog_add(cat, &(struct probe){ .kind = PROV_SDT,
			.prov = "derived", .mod = s->group, .func = "",
			.name = s->event, .sysnr = -1, .tp_group = s->group,
			.tp_event = s->event, .tp_nargs = sdt_tp_nargs(s->event),
			.hidden = true });
	else
		p = fn_base(cat, s->fn, s->ret);
	if (b->n == 64)
		abort();	/* the table below outgrew this */
	b->key[i] = key;
	b->ret[i] = s->ret;
	b->p[i] = p;
	b->ret_text[i] = NULL;
	if (s->ret) {
		fn_base(cat, s->fn, false);
		b->ret_text[i] = arena_printf(catalog_arena(cat),
			"derived:vmlinux:%s:entry { self->__dv_a0 = arg0; }\n"
			"derived:vmlinux:%s:return { self->__dv_a0 = 0; }\n",
			s->fn, s->fn);
	}
	b->n++;
	return i;
}

/* The pre of the sites whose arg0 is a folio (or the head page of one,
 * where the kernel passes a page): its pages, 1 unless PG_head says it is
 * large, in the member this kernel keeps the count in (BTF says which):
 * struct folio's, or before folios (5.10) the first tail page's
 * compound_order.  A text of its own, since a member another kernel
 * lacks would fail the compile of every derived probe. */
static const char *folio_pre(void)
{
	static char text[320];
	static const char *const count[][3] = {
		{ "folio._folio_nr_pages", "folio", "__dv_head->_folio_nr_pages" },
		{ "folio._nr_pages", "folio", "__dv_head->_nr_pages" },
		{ "folio._folio_order", "folio", "1 << __dv_head->_folio_order" },
		{ "page.compound_order", "page", "1 << (__dv_head + 1)->compound_order" },
	};
	struct ktype_field f;
	const char *type = "page", *pages = "1";
	char flags_f[32];

	if (text[0])
		return text;
	for (size_t i = 0; i < sizeof(count) / sizeof(count[0]); i++)
		if (ktype_field(count[i][0], &f) == 0) {
			type = count[i][1];
			pages = count[i][2];
			break;
		}
	/* the flags word, wrapped in a struct (memdesc_flags_t) from 6.18 */
	snprintf(flags_f, sizeof(flags_f), "%s.flags.f", type);
	snprintf(text, sizeof(text),
		 "inline struct %s *__dv_head = (struct %s *)arg0;\n"
		 "inline uint64_t __dv_folio_pages =\n"
		 "    (__dv_head->flags%s & (1 << PG_head)) == 0 ? 1 : %s;\n",
		 type, type, ktype_field(flags_f, &f) == 0 ? ".f" : "", pages);
	return text;
}

/* Lowers p onto the sites of way w: p is the first, each further site
 * that the kernel has an alt of it (catalog.h).  A return site's clauses
 * are p's post: the entry's runs before the return's, whatever the order
 * of the texts, and the return's clears after the program's. */
static void lower(struct catalog *cat, struct bases *b, struct probe *p,
		  const struct site *sites)
{
	struct probe *last = NULL;

	for (int i = 0; i < MAXSITES; i++) {
		const struct site *s = &sites[i];
		struct probe *q = p;
		int k;

		if (i > 0 && !site_offered(s))
			continue;
		if (last) {
			q = arena_alloc(catalog_arena(cat), sizeof(*q));
			*q = *p;
			q->alt = NULL;
			last->alt = q;
		}
		k = site_base(cat, b, s);
		q->base = b->p[k];
		q->guard_inline = s->guard;
		q->pre = s->folio ? folio_pre() : derived_pre;
		q->post = b->ret_text[k];
		q->args = s->args;
		q->nargs = s->nargs;
		q->args_loaded = true;
		last = q;
	}
}

static bool names_one(const struct probe_desc *pd)
{
	for (size_t i = 0; i < NDERIVED; i++)
		if ((!pd->prov || !*pd->prov ||
		     catalog_glob_match(pd->prov, prov_of(derived[i].kind))) &&
		    (!pd->name || !*pd->name ||
		     catalog_glob_match(pd->name, derived[i].name)))
			return true;
	return false;
}

const char *derived_provide(struct catalog *cat, const struct probe_desc *pd)
{
	struct bases b = { .n = 0 };

	if (!names_one(pd) || !catalog_first_need(cat, PROV_VMINFO))
		return pd->mod;
	for (size_t i = 0; i < NDERIVED; i++) {
		const struct derived *r = &derived[i];
		struct probe *p = catalog_add(cat, &(struct probe){ .kind = r->kind,
			.prov = prov_of(r->kind), .mod = "vmlinux", .func = "",
			.name = r->name, .sysnr = -1 });
		int w = way_offered(r);

		if (w >= 0)
			lower(cat, &b, p, r->ways[w]);
	}
	return pd->mod;
}

static const struct derived *row_of(const struct probe *p)
{
	for (size_t i = 0; i < NDERIVED; i++)
		if (derived[i].kind == p->kind && strcmp(derived[i].name, p->name) == 0)
			return &derived[i];
	return NULL;
}

/* Only a probe this kernel does not offer gets here: the others' args[]
 * are their sites' (lower). */
int derived_load_args(struct catalog *cat, struct probe *p)
{
	const struct derived *r = row_of(p);

	(void)cat;
	if (!r)
		return p->nargs = 0;
	p->args = r->ways[0][0].args;
	return p->nargs = r->ways[0][0].nargs;
}

/* What serves a site, in words: "the sched:sched_switch tracepoint". */
static void site_text(const struct site *s, char *buf, size_t n)
{
	if (s->event)
		snprintf(buf, n, "the %s:%s tracepoint", s->group, s->event);
	else
		snprintf(buf, n, "fbt on %s%s", s->fn, s->ret ? "'s return" : "");
}

/* The site a refusal names: the first of the first way whose function
 * BTF has (where fbt alone is missing, the function that would serve),
 * else the first way's. */
static const struct site *site_named(const struct derived *r)
{
	for (int w = 0; w < MAXWAYS; w++)
		if (r->ways[w][0].fn && ktype_func_id(r->ways[w][0].fn) > 0)
			return &r->ways[w][0];
	return &r->ways[0][0];
}

const char *derived_missing(const struct probe *p)
{
	static char why[400];
	const struct derived *r = row_of(p);
	const struct site *s;
	char what[96];

	if (!r || p->base || !ktype_btf())
		return NULL;
	s = r->ways[0][0].event ? &r->ways[0][0] : site_named(r);
	site_text(s, what, sizeof(what));
	if (s->event && r->ways[1][0].fn) {
		char other[96];

		site_text(&r->ways[1][0], other, sizeof(other));
		snprintf(why, sizeof(why), "%s:::%s needs %s (of %d or more "
			 "arguments), or %s, and this kernel has neither",
			 prov_of(r->kind), r->name, what, s->tp_min, other);
	} else if (s->event)
		snprintf(why, sizeof(why), "%s:::%s needs %s, which this kernel "
			 "does not have", prov_of(r->kind), r->name, what);
	else if (ktype_func_id(s->fn) > 0)
		snprintf(why, sizeof(why), "%s:::%s needs %s, and this kernel "
			 "attaches neither fentry nor kprobes", prov_of(r->kind),
			 r->name, what);
	else
		snprintf(why, sizeof(why), "%s:::%s needs %s, a function this "
			 "kernel's BTF does not have", prov_of(r->kind), r->name,
			 what);
	return why;
}

/* DTrace's vminfo probes no kernel here offers, and why. */
void derived_why_none(const struct probe_desc *pd, char *buf, size_t n)
{
	static const struct { const char *name, *why; } never[] = {
		{ "execfree", "Linux's reclaim does not tell executable pages "
		  "from other file pages" },
		{ "execpgin", "Linux reads executable pages as any file page "
		  "(vminfo:::pgpgin counts them with the rest)" },
		{ "execpgout", "Linux writes executable pages as any file page "
		  "(vminfo:::pgpgout counts them with the rest)" },
		{ "fspgin", "Linux counts file pages read only with all block "
		  "reads (vminfo:::pgpgin)" },
		{ "fspgout", "Linux counts file pages written only with all "
		  "block writes (vminfo:::pgpgout)" },
		{ "pgfrec", "Linux has no free list to reclaim a page from: a "
		  "freed page's contents are gone" },
		{ "pgrec", "Linux has no free list to reclaim a page from: a "
		  "freed page's contents are gone" },
		{ "rev", "Linux's reclaim has no clock hand to go round" },
		{ "softlock", "Linux pins user pages for the kernel "
		  "(get_user_pages) without a fault of its own" },
	};

	if (!pd->name)
		return;
	for (size_t i = 0; i < sizeof(never) / sizeof(never[0]); i++)
		if (strcmp(pd->name, never[i].name) == 0) {
			snprintf(buf, n, "vminfo:::%s is not offered: %s",
				 never[i].name, never[i].why);
			return;
		}
}

void derived_print(FILE *out)
{
	fprintf(out, "Probes served by other events (tried once):\n");
	for (size_t i = 0; i < NDERIVED; i++) {
		const struct derived *r = &derived[i];
		int w = way_offered(r);
		char name[64], what[96];

		snprintf(name, sizeof(name), "%s:::%s", prov_of(r->kind), r->name);
		if (w < 0) {
			site_text(r->ways[0][0].event ? &r->ways[0][0] : site_named(r),
				  what, sizeof(what));
			fprintf(out, "  %-28s no   needs %s\n", name, what);
			continue;
		}
		fprintf(out, "  %-28s yes ", name);
		for (int k = 0; k < MAXSITES; k++) {
			const struct site *s = &r->ways[w][k];

			if (!s->group && !s->fn)
				break;
			if (k > 0 && !site_offered(s))
				continue;
			site_text(s, what, sizeof(what));
			fprintf(out, "%s%s", k ? ", " : " ", what);
		}
		if (r->ways[w][0].fn)
			fprintf(out, " (%s)", kcaps_has(KCAP_FENTRY) ? "fentry" : "kprobe");
		fprintf(out, "\n");
	}
}
