/*
 * kcaps.c -- capability detection by trial.  See kcaps.h.
 *
 * A trial must be cheap and leave nothing behind: programs are two to a
 * dozen instructions, links are closed at once, and nothing is attached
 * that a close would need a grace period to undo (a uprobe or kprobe
 * perf event costs ~100 ms to close, DESIGN.md 3.5): the PMUs are taken
 * from the kernel's own description of them in sysfs instead.  A
 * link-creation trial is built to fail early in the kernel's checks with
 * an error only a kernel that knows the link type can give (EBADF for a
 * uprobe_multi path that is a directory, ESRCH for a kprobe_multi symbol
 * that does not exist), so nothing is ever attached.
 */
#include "kern/kcaps.h"

#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include <errno.h>
#include <linux/perf_event.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "kern/ktypes.h"
#include "kern/maps.h"
#include "kern/uprobe_multi.h"
#include "spec/spec.h"

#define PMU_DIR "/sys/bus/event_source/devices/"

static const struct bpf_insn ret0[] = {
	{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0 },
	{ .code = BPF_JMP | BPF_EXIT },
};

/* Load insns (ret0 if NULL); the fd, or -errno. */
static int trial_load(enum bpf_prog_type type, uint32_t attach, int btf_id,
		      const struct bpf_insn *insns, size_t n)
{
	LIBBPF_OPTS(bpf_prog_load_opts, o, .expected_attach_type = attach,
		    .attach_btf_id = btf_id > 0 ? (uint32_t)btf_id : 0);
	int fd = bpf_prog_load(type, "dscope_kcap", "GPL", insns ? insns : ret0,
			       insns ? n : 2, &o);

	return fd < 0 ? -errno : fd;
}

static bool try_ringbuf(void);

static bool loads(enum bpf_prog_type type, uint32_t attach, int btf_id)
{
	int fd = trial_load(type, attach, btf_id, NULL, 0);

	if (fd >= 0)
		close(fd);
	return fd >= 0;
}

static int btf_id(const char *name, int kind)
{
	const struct btf *btf = ktype_btf();

	return btf ? btf__find_by_name_kind(btf, name, kind) : -1;
}

static bool try_uprobe_multi(void)
{
	int fd = trial_load(BPF_PROG_TYPE_KPROBE, ATTACH_TYPE_UPROBE_MULTI, 0, NULL, 0);
	uint64_t off = 0;
	int lfd;

	if (fd < 0)
		return false;
	lfd = uprobe_link_multi(fd, "/", &off, NULL, NULL, 1, false, 0);
	if (lfd >= 0)
		close(lfd);
	close(fd);
	return lfd == -EBADF;	/* "/" is no regular file */
}

static bool try_kprobe_multi(void)
{
	int fd = trial_load(BPF_PROG_TYPE_KPROBE, BPF_TRACE_KPROBE_MULTI, 0, NULL, 0), lfd, err;
	const char *sym = "dscope_no_such_function";
	LIBBPF_OPTS(bpf_link_create_opts, lo, .kprobe_multi.syms = &sym,
		    .kprobe_multi.cnt = 1);

	if (fd < 0)
		return false;
	lfd = bpf_link_create(fd, 0, BPF_TRACE_KPROBE_MULTI, &lo);
	err = errno;
	if (lfd >= 0)
		close(lfd);
	close(fd);
	return lfd >= 0 || err == ESRCH;
}

/* new, next and destroy on one iterator: what cg_subr.c's loops call */
static bool try_iter_num(void)
{
	int idn = btf_id("bpf_iter_num_new", BTF_KIND_FUNC);
	int idx = btf_id("bpf_iter_num_next", BTF_KIND_FUNC);
	int idd = btf_id("bpf_iter_num_destroy", BTF_KIND_FUNC);
#define FP_ARG { .code = BPF_ALU64 | BPF_MOV | BPF_X, .dst_reg = 1, .src_reg = 10 }, \
	       { .code = BPF_ALU64 | BPF_ADD | BPF_K, .dst_reg = 1, .imm = -8 }
#define KCALL(id) { .code = BPF_JMP | BPF_CALL, .src_reg = BPF_PSEUDO_KFUNC_CALL, \
		    .imm = (id) }
	struct bpf_insn p[] = {
		FP_ARG,
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = 2, .imm = 0 },
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = 3, .imm = 1 },
		KCALL(idn), FP_ARG, KCALL(idx), FP_ARG, KCALL(idd),
		ret0[0], ret0[1],
	};
#undef FP_ARG
#undef KCALL
	int fd;

	if (idn < 0 || idx < 0 || idd < 0)
		return false;
	fd = trial_load(BPF_PROG_TYPE_KPROBE, 0, 0, p, sizeof(p) / sizeof(p[0]));
	if (fd >= 0)
		close(fd);
	return fd >= 0;
}

static bool try_raw_tp(void)
{
	int fd = trial_load(BPF_PROG_TYPE_RAW_TRACEPOINT, 0, 0, NULL, 0), lfd;

	if (fd < 0)
		return false;
	lfd = bpf_raw_tracepoint_open("sys_enter", fd);
	if (lfd >= 0)
		close(lfd);
	close(fd);
	return lfd >= 0;
}

static bool try_tp_btf(void)
{
	int id = btf_id("btf_trace_sched_switch", BTF_KIND_TYPEDEF);

	return id > 0 && loads(BPF_PROG_TYPE_TRACING, BPF_TRACE_RAW_TP, id);
}

/*
 * fbt through fentry wants a trampoline on a real function (vfs_read,
 * attached for the moment of the trial; the program does nothing),
 * attached as 5.5+ attach it, by BPF_RAW_TRACEPOINT_OPEN.
 */
static bool try_fentry(void)
{
	int id = btf_id("vfs_read", BTF_KIND_FUNC), fd, lfd;

	if (id <= 0 || (fd = trial_load(BPF_PROG_TYPE_TRACING, BPF_TRACE_FENTRY, id,
					NULL, 0)) < 0)
		return false;
	lfd = bpf_raw_tracepoint_open(NULL, fd);
	if (lfd >= 0)
		close(lfd);
	close(fd);
	return lfd >= 0;
}

/*
 * And to serve many functions with one program's copies as kprobes do:
 * the arguments by bpf_get_func_arg and a cookie on the link (6.0+) read
 * by bpf_get_attach_cookie.
 */
static bool try_fentry_cookie(void)
{
#define MOV_X(d, s) { .code = BPF_ALU64 | BPF_MOV | BPF_X, .dst_reg = d, .src_reg = s }
#define MOV_K(d, k) { .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = d, .imm = k }
#define CALL(f) { .code = BPF_JMP | BPF_CALL, .imm = f }
	const struct bpf_insn p[] = {
		MOV_X(6, 1),
		{ .code = BPF_ST | BPF_MEM | BPF_DW, .dst_reg = 10, .off = -8 },
		MOV_X(1, 6), MOV_K(2, 0), MOV_X(3, 10),
		{ .code = BPF_ALU64 | BPF_ADD | BPF_K, .dst_reg = 3, .imm = -8 },
		CALL(BPF_FUNC_get_func_arg),
		MOV_X(1, 6), CALL(BPF_FUNC_get_attach_cookie),
		ret0[0], ret0[1],
	};
#undef MOV_X
#undef MOV_K
#undef CALL
	int id = btf_id("vfs_read", BTF_KIND_FUNC), fd, lfd;
	LIBBPF_OPTS(bpf_link_create_opts, lo, .tracing.cookie = 1);

	if (id <= 0 || (fd = trial_load(BPF_PROG_TYPE_TRACING, BPF_TRACE_FENTRY, id, p,
					sizeof(p) / sizeof(p[0]))) < 0)
		return false;
	lfd = bpf_link_create(fd, 0, BPF_TRACE_FENTRY, &lo);
	if (lfd >= 0)
		close(lfd);
	close(fd);
	return lfd >= 0;
}

#define MOV_X(d, s) { .code = BPF_ALU64 | BPF_MOV | BPF_X, .dst_reg = d, .src_reg = s }
#define MOV_K(d, k) { .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = d, .imm = k }
#define CALL(f) { .code = BPF_JMP | BPF_CALL, .imm = f }
#define LD_MAP(d, fd) { .code = BPF_LD | BPF_DW | BPF_IMM, .dst_reg = d, \
			.src_reg = BPF_PSEUDO_MAP_FD, .imm = fd }, { 0 }
#define FP(d, off) MOV_X(d, 10), { .code = BPF_ALU64 | BPF_ADD | BPF_K, \
				   .dst_reg = d, .imm = off }

/* A sleepable uprobe program, loaded as load.c would (for uprobe_multi
 * links where the kernel has them, else for perf events). */
static int load_sleepable(const struct bpf_insn *p, size_t n)
{
	uint32_t att = kcaps_has(KCAP_UPROBE_MULTI) ? ATTACH_TYPE_UPROBE_MULTI : 0;
	LIBBPF_OPTS(bpf_prog_load_opts, o, .expected_attach_type = att,
		    .prog_flags = BPF_F_SLEEPABLE);
	int fd = bpf_prog_load(BPF_PROG_TYPE_KPROBE, "dscope_kcap", "GPL", p, n, &o);

	return fd < 0 ? -errno : fd;
}

/*
 * What cg.c's sleepable programs use, together: a uprobe program that may
 * sleep (6.0+), its scratch in task storage, bpf_copy_from_user and a
 * record through a ring buffer -- a sleepable program may not write to a
 * perf event array.
 */
static bool try_sleep_uprobe(void)
{
	int ts = kern_map_create(BPF_MAP_TYPE_TASK_STORAGE, "dscope_kcap", 4, 8, 0,
				 BPF_F_NO_PREALLOC);
	int rb = try_ringbuf() ? bpf_map_create(BPF_MAP_TYPE_RINGBUF, "dscope_kcap",
						0, 0, 4096, NULL) : -1;
	int fd = -1;

	if (ts >= 0 && rb >= 0) {
		const struct bpf_insn p[] = {
			CALL(BPF_FUNC_get_current_task_btf), MOV_X(2, 0),
			LD_MAP(1, ts), MOV_K(3, 0), MOV_K(4, BPF_LOCAL_STORAGE_GET_F_CREATE),
			CALL(BPF_FUNC_task_storage_get),
			{ .code = BPF_JMP | BPF_JEQ | BPF_K, .dst_reg = 0, .off = 13 },
			MOV_X(1, 0), MOV_K(2, 8), MOV_K(3, 0), CALL(BPF_FUNC_copy_from_user),
			LD_MAP(1, rb), MOV_K(2, 16), MOV_K(3, 0),
			CALL(BPF_FUNC_ringbuf_reserve),
			{ .code = BPF_JMP | BPF_JEQ | BPF_K, .dst_reg = 0, .off = 3 },
			MOV_X(1, 0), MOV_K(2, 0), CALL(BPF_FUNC_ringbuf_submit),
			ret0[0], ret0[1],
		};
		fd = load_sleepable(p, sizeof(p) / sizeof(p[0]));
	}
	if (fd >= 0)
		close(fd);
	if (rb >= 0)
		close(rb);
	if (ts >= 0)
		close(ts);
	return fd >= 0;
}

/* bpf_copy_from_user_str(fp - 8, 8, NULL, BPF_F_PAD_ZEROS) where it sleeps */
static bool try_copy_str(void)
{
	int id = btf_id("bpf_copy_from_user_str", BTF_KIND_FUNC), fd;
	const struct bpf_insn p[] = {
		{ .code = BPF_ST | BPF_MEM | BPF_DW, .dst_reg = 10, .off = -8 },
		FP(1, -8), MOV_K(2, 8), MOV_K(3, 0), MOV_K(4, 1),
		{ .code = BPF_JMP | BPF_CALL, .src_reg = BPF_PSEUDO_KFUNC_CALL, .imm = id },
		ret0[0], ret0[1],
	};

	if (id <= 0 || (fd = load_sleepable(p, sizeof(p) / sizeof(p[0]))) < 0)
		return false;
	close(fd);
	return true;
}

/*
 * The atomics beyond the plain lock add (BPF_XADD, which every kernel
 * with eBPF has): a fetch-and-add and a compare-and-exchange, on a stack
 * slot; speculations claim and end their IDs by the second.  A kernel before 5.12 rejects either form ("BPF_STX uses
 * reserved fields").
 */
static bool try_atomic_fetch(void)
{
	const struct bpf_insn p[] = {
		{ .code = BPF_ST | BPF_MEM | BPF_DW, .dst_reg = 10, .off = -8 },
		MOV_K(1, 1),
		{ .code = BPF_STX | BPF_ATOMIC | BPF_DW, .dst_reg = 10, .src_reg = 1,
		  .off = -8, .imm = BPF_ADD | BPF_FETCH },
		MOV_K(0, 0),
		{ .code = BPF_STX | BPF_ATOMIC | BPF_DW, .dst_reg = 10, .src_reg = 1,
		  .off = -8, .imm = BPF_CMPXCHG },
		ret0[0], ret0[1],
	};
	int fd = trial_load(BPF_PROG_TYPE_KPROBE, 0, 0, p, sizeof(p) / sizeof(p[0]));

	if (fd >= 0)
		close(fd);
	return fd >= 0;
}

/*
 * A perf_event program (profile, tick) that names a hash map whose
 * entries are allocated when used: a kernel before 6.1's BPF allocator
 * refuses it ("perf_event programs can only use preallocated hash map"),
 * the event's NMI may come in the middle of the allocator.
 */
static bool try_perf_noprealloc(void)
{
	int m = bpf_map_create(BPF_MAP_TYPE_HASH, "dscope_kcap", 4, 8, 1,
			       &(struct bpf_map_create_opts){ .sz = sizeof(struct bpf_map_create_opts),
							      .map_flags = BPF_F_NO_PREALLOC });
	int fd = -1;

	if (m >= 0) {
		const struct bpf_insn p[] = { LD_MAP(1, m), ret0[0], ret0[1] };

		fd = trial_load(BPF_PROG_TYPE_PERF_EVENT, 0, 0, p, sizeof(p) / sizeof(p[0]));
		close(m);
	}
	if (fd >= 0)
		close(fd);
	return fd >= 0;
}
#undef MOV_X
#undef MOV_K
#undef CALL
#undef LD_MAP
#undef FP

/* A disabled software event on this thread, a PERF_EVENT program linked. */
static bool try_perf_link(void)
{
	struct perf_event_attr attr = {
		.type = PERF_TYPE_SOFTWARE, .size = sizeof(attr),
		.config = PERF_COUNT_SW_CPU_CLOCK, .sample_period = 1000000,
		.disabled = 1,
	};
	int pfd = (int)syscall(SYS_perf_event_open, &attr, 0, -1, -1,
			       PERF_FLAG_FD_CLOEXEC);
	int fd = trial_load(BPF_PROG_TYPE_PERF_EVENT, 0, 0, NULL, 0), lfd = -1;

	if (pfd >= 0 && fd >= 0)
		lfd = bpf_link_create(fd, pfd, BPF_PERF_EVENT, NULL);
	if (lfd >= 0)
		close(lfd);
	if (fd >= 0)
		close(fd);
	if (pfd >= 0)
		close(pfd);
	return lfd >= 0;
}

static bool try_ringbuf(void)
{
	int fd = bpf_map_create(BPF_MAP_TYPE_RINGBUF, "dscope_kcap", 0, 0, 4096, NULL);

	if (fd >= 0)
		close(fd);
	return fd >= 0;
}

static bool helper(int id)
{
	return libbpf_probe_bpf_helper(BPF_PROG_TYPE_KPROBE, id, NULL) == 1;
}

static bool try_uprobe_pmu(void)
{
	return access(PMU_DIR "uprobe/type", R_OK) == 0;
}

static bool try_uprobe_refctr(void)
{
	return access(PMU_DIR "uprobe/format/ref_ctr_offset", R_OK) == 0;
}

static bool try_kprobe(void)
{
	return access(PMU_DIR "kprobe/type", R_OK) == 0;
}

static bool try_loop(void) { return helper(BPF_FUNC_loop); }
static bool try_cookie(void) { return helper(BPF_FUNC_get_attach_cookie); }
static bool try_write_user(void) { return helper(BPF_FUNC_probe_write_user); }
static bool try_find_vma(void) { return helper(BPF_FUNC_find_vma); }
static bool try_task_stack(void) { return helper(BPF_FUNC_get_task_stack); }
static bool try_task_pt_regs(void)
{
	return helper(BPF_FUNC_get_current_task_btf) && helper(BPF_FUNC_task_pt_regs);
}

/*
 * A global function (5.6): a subprogram the verifier checks once, on its
 * own, from the types of its arguments, and not again at each call.
 * ustack()'s walk steps its frames in one where bpf_loop is missing
 * (cg_ustack.c).  Tried as the walk uses it: a kprobe program calling a
 * global function of one u64, the functions named by BTF func_info
 * (load.c builds the same for the walk).
 *
 *	r1 = 0; call step; exit
 * step:
 *	r0 = 0; exit
 */
static bool try_global_func(void)
{
	const struct bpf_insn p[] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_1 },
		{ .code = BPF_JMP | BPF_CALL, .src_reg = BPF_PSEUDO_CALL, .imm = 1 },
		{ .code = BPF_JMP | BPF_EXIT },
		ret0[0], ret0[1],
	};
	struct btf *btf = btf__new_empty();
	struct bpf_func_info info[2];
	int i = btf ? btf__add_int(btf, "int", 4, BTF_INT_SIGNED) : -1;
	int u = i < 0 ? i : btf__add_int(btf, "u64", 8, 0);
	int mp = u < 0 ? u : btf__add_func_proto(btf, i);
	int sp = mp < 0 ? mp : btf__add_func_proto(btf, i);
	int id = sp < 0 ? sp : btf__add_func_param(btf, "w", u);
	int fd = -1;

	id = id < 0 ? id : btf__add_func(btf, "dscope_kcap", BTF_FUNC_GLOBAL, mp);
	info[0] = (struct bpf_func_info){ 0, (uint32_t)id };
	id = id < 0 ? id : btf__add_func(btf, "dscope_kcap_step", BTF_FUNC_GLOBAL, sp);
	info[1] = (struct bpf_func_info){ 3, (uint32_t)id };
	if (id >= 0 && btf__load_into_kernel(btf) == 0) {
		LIBBPF_OPTS(bpf_prog_load_opts, o, .prog_btf_fd = (uint32_t)btf__fd(btf),
			    .func_info = info, .func_info_cnt = 2,
			    .func_info_rec_size = sizeof(info[0]));

		fd = bpf_prog_load(BPF_PROG_TYPE_KPROBE, "dscope_kcap", "GPL", p, 5, &o);
	}
	if (fd >= 0)
		close(fd);
	btf__free(btf);
	return fd >= 0;
}

static const struct cap {
	const char *name;	/* for DSCOPE_CAPS_DISABLE and -vV */
	bool (*try)(void);
	const char *with;	/* what it gives */
	const char *without;	/* what dscope does when it is absent */
} caps[KCAP_COUNT] = {	/* ORDER: enum kcap */
	{ "uprobe_multi", try_uprobe_multi, "pid/usdt: one link per file",
	  "pid/usdt: one uprobe perf event per probe (slow to detach)" },
	{ "uprobe_pmu", try_uprobe_pmu, "uprobe perf events",
	  "pid/usdt need uprobe_multi" },
	{ "uprobe_ref_ctr", try_uprobe_refctr, "USDT semaphores on perf events",
	  "without uprobe_multi, USDT semaphores are not set" },
	{ "perf_link", try_perf_link, "BPF links on perf events, with cookies",
	  "programs are set on perf events by ioctl" },
	{ "attach_cookie", try_cookie, "bpf_get_attach_cookie",
	  "a copy of the program for each pid, usdt or kprobe probe" },
	{ "iter_num", try_iter_num, "string loops on bpf_iter_num",
	  "string loops run as bpf_loop callbacks, or bounded loops without it" },
	{ "bpf_loop", try_loop, "bpf_loop: ustack()'s frames, chill()",
	  "ustack()'s frames by a global function, no chill()" },
	{ "raw_tp", try_raw_tp, "raw tracepoints: syscall, proc, io",
	  "those providers cannot attach" },
	{ "tp_btf", try_tp_btf, "typed raw tracepoints: sched",
	  "sched's on-cpu cannot read the next task" },
	{ "fentry", try_fentry, "fentry and fexit: fbt of a few functions",
	  "fbt through kprobes only" },
	{ "fentry_cookie", try_fentry_cookie, "one fentry program for many functions; "
	  "arguments and return value by helpers", "a copy of the program per function; "
	  "arguments and return value read from its context" },
	{ "kprobe", try_kprobe, "the kprobe PMU", "no fbt through kprobes" },
	{ "kprobe_multi", try_kprobe_multi, "kprobe_multi links",
	  "kprobes attach one at a time" },
	{ "ringbuf", try_ringbuf, "BPF ring buffers: exit() wakes dscope",
	  "dscope cannot run (it needs one)" },
	{ "probe_write_user", try_write_user, "bpf_probe_write_user",
	  "no copyout(), copyoutstr()" },
	{ "find_vma", try_find_vma, "bpf_find_vma: ustack()'s mappings before tables",
	  "ustack()'s mappings before tables from the mm's tree (before 6.1)" },
	{ "get_task_stack", try_task_stack, "bpf_get_task_stack",
	  "on-cpu has no stack()" },
	{ "sleep_uprobe", try_sleep_uprobe, "pid/usdt copyin(), copyinstr() fault pages in",
	  "pid/usdt copyin(), copyinstr() of a page not in memory fail" },
	{ "copy_str", try_copy_str, "bpf_copy_from_user_str: copyinstr() faults in one call",
	  "copyinstr() faults its pages in, then reads" },
	{ "atomic_fetch", try_atomic_fetch, "atomic fetch-and-add and compare-and-exchange",
	  "no speculations" },
	{ "perf_noprealloc", try_perf_noprealloc, "hash maps filled as used, in every program",
	  "kprobe, tracepoint, profile and tick programs' hash maps allocated whole at start" },
	{ "task_pt_regs", try_task_pt_regs, "uregs[], syscall args by bpf_task_pt_regs",
	  "uregs[], ustack()'s registers read at the top of the kernel stack" },
	{ "global_func", try_global_func, "global functions: ustack() without bpf_loop",
	  "without bpf_loop, ustack() walks frame pointers" },
};

/* Whether the comma-separated list in environment variable var names
 * name (the test aids of kcaps.h). */
static bool listed(const char *var, const char *name)
{
	const char *s = getenv(var);
	size_t len = strlen(name);

	while (s && *s) {
		size_t n = strcspn(s, ",");

		if (n == len && strncmp(s, name, n) == 0)
			return true;
		s += n + (s[n] == ',');
	}
	return false;
}

static bool disabled(const char *name)
{
	return listed("DSCOPE_CAPS_DISABLE", name);
}

/* The answer without a trial when DSCOPE_CAPS pins it: 1 yes, -1 no; 0
 * when nothing is pinned. */
static int pinned(const char *name)
{
	if (!getenv("DSCOPE_CAPS"))
		return 0;
	return listed("DSCOPE_CAPS", name) ? 1 : -1;
}

/* The process-wide answers (kcaps.h): 0 untried, 1 yes, -1 no.  A trial
 * may ask for another capability (uprobe_ref_ctr wants uprobe_multi's
 * answer), so no lock is held across one. */
static signed char known[KCAP_COUNT];
static signed char known_sdiv;		/* the same, for load_has_sdiv */

/* *k, trying (or taking the pin) first when it is untried. */
static bool answer(signed char *k, const char *name, bool (*try)(void))
{
	signed char v = __atomic_load_n(k, __ATOMIC_ACQUIRE);

	if (!v) {
		if (!(v = (signed char)pinned(name)))
			v = !disabled(name) && try() ? 1 : -1;
		__atomic_store_n(k, v, __ATOMIC_RELEASE);
	}
	return v > 0;
}

bool kcaps_has(enum kcap c)
{
	return answer(&known[c], caps[c].name, caps[c].try);
}

void kcaps_print(FILE *out)
{
	fprintf(out, "Kernel capabilities (each tried once):\n");
	for (int i = 0; i < KCAP_COUNT; i++) {
		bool yes = kcaps_has((enum kcap)i);

		fprintf(out, "  %-17s %-3s  %s%s\n", caps[i].name, yes ? "yes" : "no",
			yes ? caps[i].with : caps[i].without,
			!yes && disabled(caps[i].name) ? " (DSCOPE_CAPS_DISABLE)" : "");
	}
}

static bool try_sdiv(void)
{
	struct bpf_insn insns[] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0, .imm = 1 },
		{ .code = BPF_ALU64 | BPF_DIV | BPF_K, .dst_reg = BPF_REG_0,
		  .off = 1, .imm = -1 },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	int fd = bpf_prog_load(BPF_PROG_TYPE_SOCKET_FILTER, "dscope_sdiv", "GPL",
			       insns, 3, NULL);
	bool yes = fd >= 0 || errno == EPERM;

	if (fd >= 0)
		close(fd);
	return yes;
}

bool load_has_sdiv(void)
{
	return answer(&known_sdiv, "sdiv", try_sdiv);
}
