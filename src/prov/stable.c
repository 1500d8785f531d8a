/*
 * stable.c -- DTrace's stable sched, proc and io providers, on kernel
 * tracepoints (DESIGN.md 3.6, 3.7).
 *
 * Each probe is a tracepoint plus three facts the compiler uses:
 *  - its args[], each made from one tracepoint argument by a D library
 *    inline (dlib.c): __lwpsinfo[task] is xlate <lwpsinfo_t *> (task), so
 *    DTrace's translated views come from the same translators curpsinfo
 *    uses;
 *  - cur_task: the task the builtins describe, when it is not the one
 *    running.  sched_switch runs in the leaving task: off-cpu is natural
 *    there, but on-cpu describes the incoming task, so its pid, tid,
 *    execname and curthread are read from `next`;
 *  - guard: several probes share a tracepoint (sched_process_fork is both
 *    create and lwp-create), and the guard says which firings are this
 *    probe's.
 *
 * Where Linux has no tracepoint of the same name, a probe is built from
 * one that shows the same event:
 *  - sched:::sleep and preempt are sched_switch split by why prev leaves
 *    the CPU: it blocks (not preempted, no longer TASK_RUNNING) or stays
 *    runnable (preempted, or yielding);
 *  - sched:::remain-cpu is sched_exit_tp(is_switch) with is_switch false:
 *    __schedule() ran and chose the thread already on the CPU (a bare
 *    tracepoint that not every kernel has);
 *  - proc:::start and lwp-start are raw_syscalls' sys_exit in a fork
 *    child returning 0 from the clone that made it: its first step in
 *    user space, in its own context, as DTrace's start;
 *  - proc:::exec is every attempt to exec, before it succeeds or fails,
 *    in the old program (its execname, pid, ppid), as DTrace's; args[0]
 *    is the path asked for.  DTrace reads the kernel's copy of it, which
 *    cannot fault; so does this one, at the first point of each attempt
 *    where the path is safe to read: sched_prepare_exec (bprm->filename)
 *    for an exec that gets that far, sys_exit of execve/execveat with an
 *    error for one that fails before it (the caller's path, which the
 *    kernel's copying made resident).  It is a lowered probe of two
 *    sites (catalog.h: alt); a per-thread mark keeps an exec that fails
 *    after sched_prepare_exec (past the point of no return) from firing
 *    twice.  A kernel without sched_prepare_exec (before 6.10) has no
 *    point where the old program still runs and the kernel has the path:
 *    there exec is sys_enter of execve/execveat, reading the path from
 *    the caller's memory, which fails where that page is not resident;
 *  - proc:::exec-failure is sys_exit of execve/execveat with an error;
 *    args[0] is the errno.
 *  - io:::start is block_io_start, which fires in the thread submitting
 *    the request (as DTrace's start, in bdev_strategy), not at dispatch
 *    to the device, which may run later in a kworker: "which process is
 *    doing I/O" needs the submitter.  io:::done is block_rq_complete,
 *    before the request's byte count is consumed.  Requests the block
 *    layer does not account (passthrough) complete without a start.
 * The probes no tracepoint of the same name shows (sched:::enqueue,
 * dequeue, tick, change-pri, surrender; proc:::fault, signal-clear,
 * signal-discard; vminfo; sysinfo) are derived.c's, lowered onto the
 * event that does.  Still not offered, rather than offered and wrong:
 * io:::wait-start/wait-done (a thread waiting for its I/O is an ordinary
 * sleep: sched:::sleep with a block-layer stack()).
 *
 * A probe whose tracepoint this kernel lacks (remain-cpu's sched_exit_tp
 * and io:::start's block_io_start are recent) is
 * not offered: matching skips it, and a description matching nothing
 * else says which tracepoint is missing (stable_missing).  BTF decides,
 * as it does for attaching: a tracepoint is there when its
 * btf_trace_EVENT is.
 */
#include "derived.h"
#include "sdt.h"

#include <string.h>

#include "kern/ktypes.h"
#include "tracefs.h"

#define TASK "struct task_struct *"

#define LWPSINFO(raw) { "lwpsinfo_t *", "", TASK, "__lwpsinfo", raw }
#define PSINFO(raw) { "psinfo_t *", "", TASK, "__psinfo", raw }
#define INT(raw) { "int", "", "int", NULL, raw }

static const struct probe_arg task_args[] = { LWPSINFO(0), PSINFO(0) };
static const struct probe_arg next_args[] = { LWPSINFO(2), PSINFO(2) };
static const struct probe_arg child_args[] = { LWPSINFO(1), PSINFO(1) };
static const struct probe_arg child_ps_args[] = { PSINFO(1) };
static const struct probe_arg exec_args[] = {	/* sys_enter, sys_exit */
	{ "string", "", "struct pt_regs *", "__exec_path", 0 },
};
static const struct probe_arg exec_bprm_args[] = {	/* sched_prepare_exec */
	{ "string", "", "struct linux_binprm *", "__bprm_filename", 1 },
};
static const struct probe_arg exit_args[] = {
	{ "int", "", TASK, "__exit_reason", 0 },
};
static const struct probe_arg send_args[] = { LWPSINFO(2), PSINFO(2), INT(0) };
static const struct probe_arg handle_args[] = {
	INT(0),
	{ "struct kernel_siginfo *", "", "struct kernel_siginfo *", NULL, 1 },
};


/* io: the block layer's struct request, translated; no file is known
 * below the page cache, so args[2] is fileinfo_t's "<none>" */
#define REQUEST "struct request *"
static const struct probe_arg io_args[] = {
	{ "bufinfo_t *", "", REQUEST, "__bufinfo", 0 },
	{ "devinfo_t *", "", REQUEST, "__devinfo", 0 },
	{ "fileinfo_t *", "", REQUEST, "__nofileinfo", 0 },
};

static const struct probe_arg exec_fail_args[] = {
	{ "int", "", "long", "__errno_of", 1 },
};

#define ARGS(v) v, (int)(sizeof(v) / sizeof(v[0]))
#define NOARGS NULL, 0

/* tp_nargs: the tracepoint's argument count on this kernel (BTF), written
 * down for when BTF is missing, which leaves the probes unusable anyway */
static const struct {
	enum prov_kind kind;
	const char *name, *tp_group, *tp_event;
	int tp_nargs;
	const struct probe_arg *args;
	int nargs;
	int cur_task, guard;
	const char *tp_fallback;	/* the same event's, where tp_event is not */
} stable_probes[] = {	/* in DTrace's listing order: by provider, name */
	{ PROV_IO, "done", "block", "block_rq_complete", 3, ARGS(io_args), 0, 0 },
	/*
	 * io:::start is a request made to the device.  block_io_start (6.5)
	 * fires as the request is made from the first bio, in the thread
	 * that submits it, as Solaris' bdev_strategy does; before it,
	 * block_rq_issue, the request handed to the driver, in the
	 * submitting thread when the queue dispatches directly (a
	 * synchronous or O_DIRECT request with no I/O scheduler queueing
	 * it) and in a kworker otherwise.
	 */
	{ PROV_IO, "start", "block", "block_io_start", 1, ARGS(io_args), 0, 0,
	  "block_rq_issue" },
	{ PROV_PROC, "create", "sched", "sched_process_fork", 2,
	  ARGS(child_ps_args), 0, GUARD_CHILD_PROCESS },
	{ PROV_PROC, "exec", "raw_syscalls", "sys_enter", 2, ARGS(exec_args),
	  0, GUARD_EXEC_ENTER },
	{ PROV_PROC, "exec-failure", "raw_syscalls", "sys_exit", 2,
	  ARGS(exec_fail_args), 0, GUARD_EXEC_FAILED },
	{ PROV_PROC, "exec-success", "sched", "sched_process_exec", 3, NOARGS,
	  0, 0 },
	{ PROV_PROC, "exit", "sched", "sched_process_exit", 2, ARGS(exit_args),
	  0, GUARD_GROUP_DEAD },
	{ PROV_PROC, "lwp-create", "sched", "sched_process_fork", 2,
	  ARGS(child_args), 0, GUARD_CHILD_THREAD },
	{ PROV_PROC, "lwp-exit", "sched", "sched_process_exit", 2, NOARGS, 0, 0 },
	{ PROV_PROC, "lwp-start", "raw_syscalls", "sys_exit", 2, NOARGS, 0,
	  GUARD_START_THREAD },
	{ PROV_PROC, "signal-handle", "signal", "signal_deliver", 3,
	  ARGS(handle_args), 0, 0 },
	{ PROV_PROC, "signal-send", "signal", "signal_generate", 5,
	  ARGS(send_args), 0, 0 },
	{ PROV_PROC, "start", "raw_syscalls", "sys_exit", 2, NOARGS, 0,
	  GUARD_START_PROCESS },
	{ PROV_SCHED, "off-cpu", "sched", "sched_switch", 4, ARGS(next_args),
	  0, 0 },
	{ PROV_SCHED, "on-cpu", "sched", "sched_switch", 4, NOARGS, 3, 0 },
	{ PROV_SCHED, "preempt", "sched", "sched_switch", 4, NOARGS, 0,
	  GUARD_PREEMPT },
	{ PROV_SCHED, "remain-cpu", "sched", "sched_exit_tp", 1, NOARGS, 0,
	  GUARD_NO_ARG0 },
	{ PROV_SCHED, "sleep", "sched", "sched_switch", 4, NOARGS, 0,
	  GUARD_SLEEP },
	{ PROV_SCHED, "wakeup", "sched", "sched_wakeup", 1, ARGS(task_args),
	  0, 0 },
};

#define NSTABLE (sizeof(stable_probes) / sizeof(stable_probes[0]))

/*
 * proc:::exec where the kernel has sched_prepare_exec: lowered onto two
 * hidden probes (in the catalog after the others, so no listed probe's
 * ID moves).  self->__exec_prepared marks an attempt that fired at
 * sched_prepare_exec, until its sys_exit, which clears it whatever the
 * result.
 */
static const char exec_prepare_pre[] = "self int __exec_prepared;\n";
static const char exec_prepare_post[] =
	"proc:sched::sched_prepare_exec\n"
	"{\n"
	"	self->__exec_prepared = 1;\n"
	"}\n";
static const char exec_exit_post[] =
	"proc:raw_syscalls::sys_exit\n"
	"{\n"
	"	self->__exec_prepared = 0;\n"
	"}\n";

static void exec_sites(struct catalog *cat, struct probe *exec)
{
	struct probe *alt = arena_alloc(catalog_arena(cat), sizeof(*alt));

	exec->base = catalog_add(cat, &(struct probe){ .kind = PROV_PROC,
		.prov = "proc", .mod = "sched", .func = "",
		.name = "sched_prepare_exec", .sysnr = -1, .tp_group = "sched",
		.tp_event = "sched_prepare_exec", .tp_nargs = 2, .hidden = true });
	exec->tp_group = "sched";
	exec->tp_event = "sched_prepare_exec";
	exec->guard = GUARD_NONE;
	exec->pre = exec_prepare_pre;
	exec->post = exec_prepare_post;
	*alt = *exec;
	alt->base = catalog_add(cat, &(struct probe){ .kind = PROV_PROC,
		.prov = "proc", .mod = "raw_syscalls", .func = "",
		.name = "sys_exit", .sysnr = -1, .tp_group = "raw_syscalls",
		.tp_event = "sys_exit", .tp_nargs = 2, .guard = GUARD_EXEC_EXIT,
		.hidden = true, .attach_first = true });
	alt->guard_inline = "__exec_failed_unprepared";
	alt->pre = NULL;
	alt->post = exec_exit_post;
	alt->args = exec_args;
	alt->nargs = 1;
	alt->args_loaded = true;
	exec->alt = alt;
}

void stable_populate(struct catalog *cat)
{
	struct probe *exec = NULL;

	for (size_t i = 0; i < NSTABLE; i++) {
		enum prov_kind k = stable_probes[i].kind;
		const char *event = stable_probes[i].tp_event;
		struct probe *p;

		/* asked of tracefs, as below: no BTF for a script that
		 * never names the probe */
		if (stable_probes[i].tp_fallback &&
		    !tracefs_event_exists(stable_probes[i].tp_group, event) &&
		    tracefs_event_exists(stable_probes[i].tp_group,
					 stable_probes[i].tp_fallback))
			event = stable_probes[i].tp_fallback;

		p = catalog_add(cat, &(struct probe){ .kind = k,
			    .prov = k == PROV_PROC ? "proc"
				    : k == PROV_IO ? "io" : "sched",
			    .mod = "vmlinux", .func = "",
			    .name = stable_probes[i].name, .sysnr = -1,
			    .tp_group = stable_probes[i].tp_group,
			    .tp_event = event,
			    .tp_nargs = stable_probes[i].tp_nargs,
			    .cur_task = stable_probes[i].cur_task,
			    .guard = stable_probes[i].guard });
		if (stable_probes[i].args == exec_args)
			exec = p;
	}
	/* asked of tracefs: every script makes the catalog, and the
	 * kernel's BTF would cost one that never names proc:::exec */
	if (tracefs_event_exists("sched", "sched_prepare_exec"))
		exec_sites(cat, exec);
}

int stable_load_args(struct catalog *cat, struct probe *p)
{
	int tp_nargs = sdt_tp_nargs(p->tp_event);

	(void)cat;
	if (tp_nargs >= 0)
		p->tp_nargs = tp_nargs;
	for (size_t i = 0; i < NSTABLE; i++)
		if (stable_probes[i].kind == p->kind &&
		    strcmp(stable_probes[i].name, p->name) == 0) {
			p->args = p->alt ? exec_bprm_args : stable_probes[i].args;
			return p->nargs = stable_probes[i].nargs;
		}
	return derived_load_args(cat, p);
}

const char *stable_missing(const struct probe *p)
{
	static char why[160];

	if (!p->tp_event)
		return derived_missing(p);
	if (!ktype_btf() || sdt_tp_nargs(p->tp_event) >= 0)
		return NULL;
	snprintf(why, sizeof(why), "%s:::%s needs the %s tracepoint, which "
		 "this kernel does not have", p->prov, p->name, p->tp_event);
	return why;
}
