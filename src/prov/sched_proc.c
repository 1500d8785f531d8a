/*
 * sched_proc.c -- DTrace's stable sched and proc providers, on kernel
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
 * DTrace probes with no Linux tracepoint (sched: enqueue, dequeue, tick,
 * sleep, preempt, remain-cpu; proc: start, lwp-start, exec-failure) are
 * not offered, rather than offered and silent.
 */
#include "sdt.h"

#include <string.h>

#define TASK "struct task_struct *"

#define LWPSINFO(raw) { "lwpsinfo_t *", "", TASK, "__lwpsinfo", raw }
#define PSINFO(raw) { "psinfo_t *", "", TASK, "__psinfo", raw }
#define INT(raw) { "int", "", "int", NULL, raw }

static const struct probe_arg task_args[] = { LWPSINFO(0), PSINFO(0) };
static const struct probe_arg next_args[] = { LWPSINFO(2), PSINFO(2) };
static const struct probe_arg child_args[] = { LWPSINFO(1), PSINFO(1) };
static const struct probe_arg child_ps_args[] = { PSINFO(1) };
static const struct probe_arg exec_args[] = {
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

#define ARGS(v) v, (int)(sizeof(v) / sizeof(v[0]))

static const struct {
	enum prov_kind kind;
	const char *name, *tp_group, *tp_event;
	const struct probe_arg *args;
	int nargs;
	int cur_task, guard;
} stable_probes[] = {	/* in DTrace's listing order: by provider, name */
	{ PROV_PROC, "create", "sched", "sched_process_fork",
	  ARGS(child_ps_args), 0, GUARD_CHILD_PROCESS },
	{ PROV_PROC, "exec", "sched", "sched_prepare_exec", ARGS(exec_args), 0, 0 },
	{ PROV_PROC, "exec-success", "sched", "sched_process_exec", NULL, 0, 0, 0 },
	{ PROV_PROC, "exit", "sched", "sched_process_exit", ARGS(exit_args), 0,
	  GUARD_ARG1 },
	{ PROV_PROC, "lwp-create", "sched", "sched_process_fork",
	  ARGS(child_args), 0, GUARD_CHILD_THREAD },
	{ PROV_PROC, "lwp-exit", "sched", "sched_process_exit", NULL, 0, 0, 0 },
	{ PROV_PROC, "signal-handle", "signal", "signal_deliver",
	  ARGS(handle_args), 0, 0 },
	{ PROV_PROC, "signal-send", "signal", "signal_generate",
	  ARGS(send_args), 0, 0 },
	{ PROV_SCHED, "off-cpu", "sched", "sched_switch", ARGS(next_args), 0, 0 },
	{ PROV_SCHED, "on-cpu", "sched", "sched_switch", NULL, 0, 3, 0 },
	{ PROV_SCHED, "wakeup", "sched", "sched_wakeup", ARGS(task_args), 0, 0 },
};

#define NSTABLE (sizeof(stable_probes) / sizeof(stable_probes[0]))

/* Tracepoint argument counts are this kernel's (BTF); written down for
 * when BTF is missing, which leaves the probes unusable anyway. */
static const int tp_nargs_known[NSTABLE] = { 2, 2, 3, 2, 2, 2, 3, 5, 4, 4, 1 };

void sched_proc_populate(struct catalog *cat)
{
	for (size_t i = 0; i < NSTABLE; i++) {
		enum prov_kind k = stable_probes[i].kind;

		catalog_add(cat, &(struct probe){ .kind = k,
			    .prov = k == PROV_PROC ? "proc" : "sched",
			    .mod = "vmlinux", .func = "",
			    .name = stable_probes[i].name, .sysnr = -1,
			    .tp_group = stable_probes[i].tp_group,
			    .tp_event = stable_probes[i].tp_event,
			    .tp_nargs = tp_nargs_known[i],
			    .cur_task = stable_probes[i].cur_task,
			    .guard = stable_probes[i].guard });
	}
}

int sched_proc_load_args(struct catalog *cat, struct probe *p)
{
	int tp_nargs = sdt_tp_nargs(p->tp_event);

	(void)cat;
	if (tp_nargs >= 0)
		p->tp_nargs = tp_nargs;
	for (size_t i = 0; i < NSTABLE; i++)
		if (stable_probes[i].kind == p->kind &&
		    strcmp(stable_probes[i].name, p->name) == 0) {
			p->args = stable_probes[i].args;
			return p->nargs = stable_probes[i].nargs;
		}
	return p->nargs = 0;
}
