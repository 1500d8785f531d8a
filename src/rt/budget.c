/*
 * budget.c -- the overhead budget.  See budget.h for what is measured and
 * why; here, how.
 *
 * The programs are found by id, not by walking the spec: fbt's fentry
 * probes and kernels without attach cookies load a copy of a program per
 * probe (rt/load.c), held only by the attach set.  Every program and link
 * fd of this process names its program's id in /proc/self/fdinfo; a copy
 * is told to the spec program it was made from by its name.
 */
#define _GNU_SOURCE
#include "rt/budget.h"

#include <bpf/bpf.h>
#include <dirent.h>
#include <errno.h>
#include <linux/perf_event.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "prov/catalog.h"
#include "rt/attach.h"
#include "rt/uprobe.h"

#define CALIB_CALLS 500		/* calls timed in each calibration round */
#define CALIB_ROUNDS 5		/* the cheapest round is taken: least noise */
#define BUSIEST 3		/* programs named when over budget */

static uint64_t thread_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/*
 * What the uprobe is put on: a function that does nothing, opening with
 * the frame pointer's push as most compiled functions do.  A uprobe
 * emulates a push in its trap; most other first instructions it steps
 * out of line, a second trap.  So the cost measured is that of the
 * cheapest uprobe, and the budget never charges a firing more than it
 * costs.  Written in assembly, so that no compiler's choice of prologue
 * changes what is measured.
 */
int budget_calib_target(int i);
__asm__(".pushsection .text\n"
	".type budget_calib_target, @function\n"
	"budget_calib_target:\n"
	"\tpush %rbp\n"
	"\tmov %rsp, %rbp\n"
	"\tlea 1(%rdi), %eax\n"
	"\tpop %rbp\n"
	"\tret\n"
	".size budget_calib_target, . - budget_calib_target\n"
	".popsection\n");

/* The CPU time of CALIB_CALLS calls of the target, at the cheapest of
 * CALIB_ROUNDS rounds. */
static uint64_t time_calls(void)
{
	uint64_t best = UINT64_MAX;
	volatile int sink = 0;

	for (int r = 0; r < CALIB_ROUNDS; r++) {
		uint64_t t0 = thread_ns();

		for (int i = 0; i < CALIB_CALLS; i++)
			sink += budget_calib_target(i);
		uint64_t t = thread_ns() - t0;

		best = t < best ? t : best;
	}
	(void)sink;
	return best;
}

/* The file and offset of the target's code: from /proc/self/maps. */
static int target_site(char *path, size_t len, uint64_t *off)
{
	uintptr_t addr = (uintptr_t)budget_calib_target;
	FILE *f = fopen("/proc/self/maps", "r");
	char line[4096];
	int rc = -ENOENT;

	if (!f)
		return -errno;
	while (rc < 0 && fgets(line, sizeof(line), f)) {
		unsigned long start, end, pgoff;
		int pos = 0;

		if (sscanf(line, "%lx-%lx %*s %lx %*s %*s %n", &start, &end, &pgoff,
			   &pos) < 3 || addr < start || addr >= end || !pos ||
		    line[pos] != '/')
			continue;
		line[strcspn(line, "\n")] = '\0';
		snprintf(path, len, "%s", line + pos);
		*off = addr - start + pgoff;
		rc = 0;
	}
	fclose(f);
	return rc;
}

/*
 * What one uprobe firing costs beyond its program: the CPU time a uprobe
 * perf event on budget_calib_target, with a program that returns at
 * once, adds to each call.  Left at 0 when it cannot be measured (no
 * uprobe PMU): then only the programs' own time counts.  The perf event
 * is not closed here: a uprobe's release waits ~100 ms for the kernel's
 * grace period, which every pid one-liner's start-up would wait too; it
 * joins the attached probes' slow fds, released in the background at
 * detach_all.  Until then it stays on, and trap_cost times it at each
 * sample's end (below), not here: nothing is charged before then, and a
 * start-up needs no calls timed.
 */
static void budget_calibrate(struct budget *b, struct attach_set *set)
{
	static const struct bpf_insn ret0[] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = 0, .imm = 0 },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	struct perf_event_attr attr = { .size = sizeof(attr), .disabled = 1 };
	uint64_t off = 0;
	char path[4096];
	int type = uprobe_pmu_type(), pfd = -1, fd = -1;

	if (type < 0 || target_site(path, sizeof(path), &off) < 0)
		return;
	attr.type = (uint32_t)type;
	attr.config1 = (uint64_t)(uintptr_t)path;
	attr.config2 = off;
	/* untimed first: an open uprobe traps even while its event is off */
	b->plain_ns = time_calls();
	fd = bpf_prog_load(BPF_PROG_TYPE_KPROBE, "dscope_calib", "GPL", ret0, 2,
			   NULL);
	if (fd >= 0)
		pfd = (int)syscall(SYS_perf_event_open, &attr, 0, -1, -1,
				   PERF_FLAG_FD_CLOEXEC);
	if (pfd >= 0 && ioctl(pfd, PERF_EVENT_IOC_SET_BPF, fd) == 0 &&
	    ioctl(pfd, PERF_EVENT_IOC_ENABLE, 0) == 0)
		b->calibrated = true;
	if (pfd >= 0)
		attach_keep_slow_fd(set, pfd);
	if (fd >= 0)
		close(fd);
}

/*
 * The trap's cost now: the calibration's calls timed again with their
 * uprobe on.  Timed at each sample, not once at start, because it is a
 * share of a clock that is not always the machine's alone: in a guest
 * without a steal clock (one emulated, its CPUs taking turns on one host
 * thread) a task is charged time it waits for the other CPUs, so while a
 * storm keeps every CPU busy its process's time and its programs' grow,
 * and a trap timed at start, the machine then idle, does not.  Measured
 * in Debian 11's guest, two threads of tinycalls under pid probes: timed
 * at start, 2.4 us a trap, and the storm 40-55% of its process's time;
 * timed at each sample, 2.7-6.7 us, and the storm 50-95%.  (A firing
 * there costs the process 9.4 us, the program 1.2 of it: the rest of the
 * gap is the emulator's, tests/sh/budget.sh.)  It costs dscope
 * CALIB_ROUNDS * CALIB_CALLS calls with a trap each per window, 2.5 ms of
 * 2 s natively.
 */
static uint64_t trap_cost(const struct budget *b)
{
	uint64_t probed;

	if (!b->calibrated)
		return 0;
	probed = time_calls();
	return probed > b->plain_ns ? (probed - b->plain_ns) / CALIB_CALLS : 0;
}

static int prog_info(int fd, struct bpf_prog_info *info)
{
	uint32_t len = sizeof(*info);

	memset(info, 0, sizeof(*info));
	return bpf_obj_get_info_by_fd(fd, info, &len);
}

/* The program of the spec that id is, or that it is a copy of (by name,
 * as the kernel keeps it: BPF_OBJ_NAME_LEN - 1 characters). */
static const struct spec_prog *spec_prog_of(const struct spec *sp, uint32_t id,
					     const char *name)
{
	struct bpf_prog_info info;

	for (int i = 0; i < sp->nprogs; i++)
		if (sp->progs[i].fd >= 0 && prog_info(sp->progs[i].fd, &info) == 0 &&
		    info.id == id)
			return &sp->progs[i];
	for (int i = 0; i < sp->nprogs; i++)
		if (strncmp(sp->progs[i].name, name, BPF_OBJ_NAME_LEN - 1) == 0)
			return &sp->progs[i];
	return NULL;
}

/* Programs that run once, on dscope's own thread, not at probes. */
static bool runs_at_probes(const struct spec_prog *p)
{
	return !p || (p->attach != ATTACH_BEGIN && p->attach != ATTACH_END &&
		      p->attach != ATTACH_ERROR && p->attach != ATTACH_REPLAY);
}

static bool known(const struct budget *b, uint32_t id)
{
	for (int i = 0; i < b->nprogs; i++)
		if (b->progs[i].id == id)
			return true;
	return false;
}

/* Add the program of id, if it runs at probes: an fd of our own for it. */
static void add_prog(struct budget *b, const struct spec *sp, uint32_t id)
{
	struct bpf_prog_info info;
	const struct spec_prog *p;
	struct budget_prog *np;
	int fd;

	if (known(b, id) || (fd = bpf_prog_get_fd_by_id(id)) < 0)
		return;
	if (prog_info(fd, &info) < 0 ||
	    !runs_at_probes(p = spec_prog_of(sp, id, info.name)) ||
	    !(np = realloc(b->progs, sizeof(*np) * (size_t)(b->nprogs + 1)))) {
		close(fd);
		return;
	}
	b->progs = np;
	b->progs[b->nprogs++] = (struct budget_prog){
		.fd = fd, .id = id, .sp = p, .run_ns = info.run_time_ns,
		.run_cnt = info.run_cnt,
	};
}

/* Every program id a program or link fd of this process names. */
static void find_progs(struct budget *b, const struct spec *sp)
{
	DIR *d = opendir("/proc/self/fdinfo");
	struct dirent *e;
	char path[300], line[128];

	while (d && (e = readdir(d))) {
		FILE *f;
		unsigned id;

		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/proc/self/fdinfo/%s", e->d_name);
		if (!(f = fopen(path, "r")))
			continue;
		while (fgets(line, sizeof(line), f))
			if (sscanf(line, "prog_id: %u", &id) == 1)
				add_prog(b, sp, id);
		fclose(f);
	}
	if (d)
		closedir(d);
}

static bool is_uprobe(enum spec_attach a)
{
	return a == ATTACH_UPROBE || a == ATTACH_URETPROBE || a == ATTACH_USDT;
}

static bool uses_uprobes(const struct spec *sp)
{
	for (int i = 0; i < sp->nprogs; i++)
		if (is_uprobe(sp->progs[i].attach))
			return true;
	return false;
}

/* The processes the pid and usdt probes are in, each once; none (pids
 * NULL) if one of them is not in a process of its own. */
static void find_pids(struct budget *b, const struct spec *sp)
{
	for (int i = 0; i < sp->nuprobes; i++) {
		int pid = sp->uprobes[i].probe->upid, k;
		int *np;

		if (!is_uprobe(sp->uprobes[i].att))
			continue;
		if (pid <= 0) {
			free(b->pids);
			b->pids = NULL;
			b->npids = 0;
			return;
		}
		for (k = 0; k < b->npids && b->pids[k] != pid; k++)
			;
		if (k < b->npids)
			continue;
		if (!(np = realloc(b->pids, sizeof(*np) * (size_t)(b->npids + 1))))
			continue;
		b->pids = np;
		b->pids[b->npids++] = pid;
	}
}

/* The CPU time the processes have had, user and system (the traps are
 * system time), in ns; 0 if one of them is gone: its time is lost. */
static uint64_t proc_time(const struct budget *b)
{
	long hz = sysconf(_SC_CLK_TCK);
	uint64_t total = 0;

	for (int i = 0; i < b->npids; i++) {
		char path[64], buf[1024], *p;
		unsigned long long ut, st;
		FILE *f;
		size_t n;

		snprintf(path, sizeof(path), "/proc/%d/stat", b->pids[i]);
		if (!(f = fopen(path, "r")))
			return 0;
		n = fread(buf, 1, sizeof(buf) - 1, f);
		fclose(f);
		buf[n] = '\0';
		/* after the command's name, which may hold spaces: field 3 on;
		 * utime and stime are fields 14 and 15 */
		if (!(p = strrchr(buf, ')')) ||
		    sscanf(p + 1, " %*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu",
			   &ut, &st) != 2)
			return 0;
		total += (ut + st) * 1000000000ull / (uint64_t)(hz > 0 ? hz : 100);
	}
	return total;
}

void budget_start(struct budget *b, const struct spec *sp,
		  struct attach_set *set, bool said, FILE *err,
		  const char *progname)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	int fd = bpf_enable_stats(BPF_STATS_RUN_TIME);

	*b = (struct budget){ .stats_fd = -1, .ncpus = n > 0 ? (int)n : 1 };
	if (fd < 0) {
		if (said)
			fprintf(err, "%s: the overhead budget cannot be kept: the "
				"kernel will not time BPF programs (%s)\n", progname,
				strerror(errno));
		return;
	}
	close(fd);	/* on only for each window's sample */
	b->on = true;
	if (uses_uprobes(sp)) {
		budget_calibrate(b, set);
		find_pids(b, sp);
	}
	find_progs(b, sp);
}

void budget_more(struct budget *b, const struct spec *sp)
{
	if (b->on)
		find_progs(b, sp);
}

/* A sample begins: the kernel times programs from now on, each one's
 * counters and the processes' time are where the sample starts from. */
static void sample_begin(struct budget *b, uint64_t now)
{
	struct bpf_prog_info info;

	b->stats_fd = bpf_enable_stats(BPF_STATS_RUN_TIME);
	for (int i = 0; i < b->nprogs; i++)
		if (prog_info(b->progs[i].fd, &info) == 0) {
			b->progs[i].run_ns = info.run_time_ns;
			b->progs[i].run_cnt = info.run_cnt;
		}
	b->proc_ns = proc_time(b);
	b->last = now;
}

/* The traps that enter one firing of p's probes. */
static uint64_t traps(const struct spec_prog *p)
{
	if (!p)
		return 0;
	switch (p->attach) {
	case ATTACH_UPROBE:
	case ATTACH_USDT:
		return 1;
	case ATTACH_URETPROBE:	/* the entry's, which sets the return's */
		return 2;
	default:
		return 0;
	}
}

/* Is p's cost a share of its processes' time (budget.h)? */
static bool in_processes(const struct budget *b, const struct budget_prog *bp)
{
	return b->npids > 0 && bp->sp && is_uprobe(bp->sp->attach);
}

/* A share of the processes' time is looked at only when they ran for a
 * quarter of a CPU over the sample: below that, the clock ticks their
 * time is counted in are too coarse to divide by. */
#define PROC_MIN_SHARE 4

/* A sample ends: the kernel stops timing programs (for dscope), and the
 * shares of the sample are worked out. */
static bool sample_end(struct budget *b, uint64_t now, uint32_t budget_ppm)
{
	uint64_t machine = 0, procs = 0, window = now > b->last ? now - b->last : 1;
	uint64_t pt = proc_time(b), trap;
	struct bpf_prog_info info;

	if (b->stats_fd < 0)
		return false;
	trap = trap_cost(b);
	for (int i = 0; i < b->nprogs; i++) {
		struct budget_prog *bp = &b->progs[i];

		bp->cost = 0;
		if (prog_info(bp->fd, &info) < 0)
			continue;
		bp->cost = (info.run_time_ns - bp->run_ns) +
			   (info.run_cnt - bp->run_cnt) * traps(bp->sp) * trap;
		*(in_processes(b, bp) ? &procs : &machine) += bp->cost;
	}
	close(b->stats_fd);
	b->stats_fd = -1;
	b->proc_window = pt && b->proc_ns && pt > b->proc_ns ? pt - b->proc_ns : 0;
	b->window = window;
	b->machine_ppm = machine * 1000000 / (window * (uint64_t)b->ncpus);
	/* the trap's cost is an estimate (budget_calibrate), and the time
	 * the processes had bounds what their probes took */
	if (procs > b->proc_window)
		procs = b->proc_window;
	b->proc_ppm = b->proc_window >= window / PROC_MIN_SHARE
			      ? procs * 1000000 / b->proc_window : 0;
	return b->machine_ppm > budget_ppm || b->proc_ppm > budget_ppm;
}

bool budget_tick(struct budget *b, uint64_t now, uint32_t budget_ppm,
		 uint64_t *next)
{
	if (!b->on)
		return false;
	if (b->stats_fd < 0) {
		sample_begin(b, now);
		*next = now + BUDGET_SAMPLE_NS;
		return false;
	}
	*next = now + BUDGET_WINDOW_NS - BUDGET_SAMPLE_NS;
	return sample_end(b, now, budget_ppm);
}

/* The probes a program serves, as one description: for the programs
 * that serve many sites (pid, usdt, fbt), the fields their probes share,
 * the others '*' ("pid42:*:*:entry (3907 probes)"); the one program of
 * the system calls' entries or returns; else its probe (the programs
 * that serve many probes keep only one of them in p->probe). */
static void describe(const struct spec *sp, const struct spec_prog *p,
		     char *buf, size_t len)
{
	const char *f[4] = { 0 };
	int n = 0;

	for (int i = 0; p && i < sp->nuprobes; i++) {
		const struct probe *q = sp->uprobes[i].probe;
		const char *g[4] = { q->prov, q->mod, q->func, q->name };

		if (sp->uprobes[i].att != p->attach)
			continue;
		for (int k = 0; k < 4; k++)
			f[k] = n == 0 || (f[k] && strcmp(f[k], g[k]) == 0) ? g[k] : NULL;
		n++;
	}
	if (p && (p->attach == ATTACH_SYS_ENTER || p->attach == ATTACH_SYS_EXIT)) {
		snprintf(buf, len, "syscall:::%s",
			 p->attach == ATTACH_SYS_ENTER ? "entry" : "return");
		return;
	}
	if (n == 0 && p && p->probe) {
		snprintf(buf, len, "%s:%s:%s:%s", p->probe->prov, p->probe->mod,
			 p->probe->func, p->probe->name);
		return;
	}
	if (n == 0) {
		snprintf(buf, len, "%s", p ? p->name : "a program");
		return;
	}
	snprintf(buf, len, "%s:%s:%s:%s (%d probe%s)", f[0] ? f[0] : "*",
		 f[1] ? f[1] : "*", f[2] ? f[2] : "*", f[3] ? f[3] : "*", n,
		 n == 1 ? "" : "s");
}

static int by_cost(const void *a, const void *b)
{
	const struct budget_prog *x = a, *y = b;

	return x->cost < y->cost ? 1 : x->cost > y->cost ? -1 : 0;
}

static int by_program(const void *a, const void *b)
{
	uintptr_t x = (uintptr_t)((const struct budget_prog *)a)->sp,
		  y = (uintptr_t)((const struct budget_prog *)b)->sp;

	return x < y ? -1 : x > y;
}

/* The programs by cost, most first, the copies of one program (a kernel
 * without attach cookies loads one a probe: cg_prog.c) added into
 * one entry: they serve its probes together.  Their count. */
static int by_program_cost(const struct budget *b, struct budget_prog *sorted)
{
	int n = 0;

	memcpy(sorted, b->progs, sizeof(*sorted) * (size_t)b->nprogs);
	qsort(sorted, (size_t)b->nprogs, sizeof(*sorted), by_program);
	for (int i = 0; i < b->nprogs; i++)
		if (n > 0 && sorted[i].sp && sorted[i].sp == sorted[n - 1].sp)
			sorted[n - 1].cost += sorted[i].cost;
		else
			sorted[n++] = sorted[i];
	qsort(sorted, (size_t)n, sizeof(*sorted), by_cost);
	return n;
}

static void print_share(FILE *err, uint64_t ppm)
{
	fprintf(err, "%llu.%llu%%", (unsigned long long)(ppm / 10000),
		(unsigned long long)(ppm / 1000 % 10));
}

/* "of 2 CPUs' time" or "of process 42's CPU time" ("processes 42, 43's") */
static void say_whose(FILE *err, const struct budget *b, bool procs)
{
	if (!procs) {
		fprintf(err, "of %d CPU%s' time", b->ncpus, b->ncpus == 1 ? "" : "s");
		return;
	}
	fprintf(err, "of process%s ", b->npids == 1 ? "" : "es");
	for (int i = 0; i < b->npids; i++)
		fprintf(err, "%s%d", i ? ", " : "", b->pids[i]);
	fprintf(err, "'s CPU time");
}

void budget_say(const struct budget *b, const struct spec *sp,
		uint32_t budget_ppm, const char *stopped, FILE *err,
		const char *progname)
{
	struct budget_prog *sorted = calloc((size_t)b->nprogs, sizeof(*sorted));
	bool procs = b->proc_ppm > budget_ppm;
	uint64_t all = procs ? b->proc_window
			     : (uint64_t)b->ncpus * (b->window ? b->window : 1);
	char desc[512];
	int named = 0;

	fprintf(err, "%s: processing aborted: Abort due to probe overhead: the "
		"probes took ", progname);
	print_share(err, procs ? b->proc_ppm : b->machine_ppm);
	fputc(' ', err);
	say_whose(err, b, procs);
	fprintf(err, " over %.1f s, over the budget of ", (double)b->window / 1e9);
	print_share(err, budget_ppm);
	fprintf(err, " (option budget)");
	if (stopped && *stopped)
		fprintf(err, ", stopped after %s", stopped);
	if (sorted) {
		int n = by_program_cost(b, sorted);

		for (int i = 0; i < n && named < BUSIEST && sorted[i].cost; i++) {
			if (in_processes(b, &sorted[i]) != procs)
				continue;
			describe(sp, sorted[i].sp, desc, sizeof(desc));
			fprintf(err, "%s%s ", named++ ? ", " : "; the busiest: ", desc);
			print_share(err, sorted[i].cost < all
					 ? sorted[i].cost * 1000000 / all : 1000000);
		}
	}
	fprintf(err, "\n");
	free(sorted);
}

void budget_end(struct budget *b)
{
	for (int i = 0; i < b->nprogs; i++)
		close(b->progs[i].fd);
	free(b->progs);
	free(b->pids);
	if (b->stats_fd >= 0)
		close(b->stats_fd);
	*b = (struct budget){ .stats_fd = -1 };
}
