/*
 * attach.c -- raw tracepoints, perf events, and run-once programs.
 * See attach.h.
 *
 * syscall probes use the raw_syscalls tracepoints (one program dispatching
 * on the syscall number) rather than 2x360 syscalls:sys_enter_* perf
 * events: attaching is one link in 0.2 ms, detaching under 0.1 ms, where
 * the perf events need seconds to tear down (DESIGN.md 3.5).
 */
#define _GNU_SOURCE	/* close_range, pipe2 */
#include "rt/attach.h"

#include "prov/catalog.h"
#include "rt/uprobe.h"

#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <linux/perf_event.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>

static void push_fd(int **fds, int *n, int *cap, int fd)
{
	if (*n == *cap) {
		int ncap = *cap ? *cap * 2 : 16;
		int *nfds = realloc(*fds, sizeof(int) * (size_t)ncap);

		if (!nfds) {
			fprintf(stderr, "dscope: out of memory\n");
			abort();
		}
		*fds = nfds;
		*cap = ncap;
	}
	(*fds)[(*n)++] = fd;
}

static void keep_fd(struct attach_set *set, int fd)
{
	push_fd(&set->fds, &set->n, &set->cap, fd);
}

void attach_keep_fd(struct attach_set *set, int fd)
{
	keep_fd(set, fd);
}

void attach_keep_slow_fd(struct attach_set *set, int fd)
{
	push_fd(&set->slow, &set->nslow, &set->slowcap, fd);
}

/*
 * Only the syscalls some clause asks for: the programs leave at once on
 * an entry whose masks are zero, which is what an array map holds where
 * nothing was written.  One batched update, not one bpf() per syscall
 * (364 of them for a script with no syscall probe at all, once).
 */
int attach_sysinfo(const struct spec *sp, FILE *err, const char *progname)
{
	uint32_t *keys = calloc(sp->nsysinfo + 1, sizeof(*keys)), n = 0;
	struct sysinfo_entry *vals = calloc(sp->nsysinfo + 1, sizeof(*vals));
	int rc = 0;

	if (!keys || !vals) {
		fprintf(stderr, "dscope: out of memory\n");
		abort();
	}
	for (uint32_t nr = 0; nr < sp->nsysinfo; nr++)
		if (sp->sysinfo[nr].entry_mask || sp->sysinfo[nr].return_mask) {
			keys[n] = nr;
			vals[n++] = sp->sysinfo[nr];
		}
	if (n && bpf_map_update_batch(sp->maps[MAP_SYSINFO].fd, keys, vals, &n,
				      NULL) < 0) {
		rc = -errno;
		fprintf(err, "%s: could not fill the syscall table: %s\n",
			progname, strerror(errno));
	}
	free(keys);
	free(vals);
	return rc;
}

/* sysfs' number in file path, or -1 */
static int32_t sysfs_number(const char *path)
{
	FILE *f = fopen(path, "r");
	int v = -1;

	if (f) {
		if (fscanf(f, "%d", &v) != 1)
			v = -1;
		fclose(f);
	}
	return v;
}

/* CPU c's NUMA node: the N of its /sys/devices/system/cpu/cpuC/nodeN */
static int32_t cpu_node(uint32_t c)
{
	char path[64];
	int32_t node = -1;

	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%u", c);
	DIR *d = opendir(path);
	struct dirent *e;

	while (d && (e = readdir(d)))
		if (strncmp(e->d_name, "node", 4) == 0 &&
		    isdigit((unsigned char)e->d_name[4]))
			node = (int32_t)atoi(e->d_name + 4);
	if (d)
		closedir(d);
	return node;
}

/* each CPU's clock in MHz, as /proc/cpuinfo's "cpu MHz" says (0 where
 * it says none), into mhz[0 .. n) */
static void cpus_mhz(int32_t *mhz, uint32_t n)
{
	FILE *f = fopen("/proc/cpuinfo", "r");
	char line[256];
	long cur = -1;

	while (f && fgets(line, sizeof(line), f)) {
		const char *colon = strchr(line, ':');

		if (!colon)
			continue;
		if (strncmp(line, "processor", 9) == 0)
			cur = atol(colon + 1);
		else if (cur >= 0 && cur < (long)n &&
			 strncmp(line, "cpu MHz", 7) == 0)
			mhz[cur] = (int32_t)(atof(colon + 1) + 0.5);
	}
	if (f)
		fclose(f);
}

/* psrinfo's view of CPU c: online or not, its type, its clock */
static struct cpu_pinfo cpu_pinfo(uint32_t c, const struct utsname *u,
				  int32_t mhz)
{
	struct cpu_pinfo pi = { .pi_state = 1 };	/* P_OFFLINE */
	char path[96];

	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%u", c);
	if (access(path, F_OK) == 0) {
		/* cpu0 often has no online file: it cannot go offline */
		snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%u/"
			 "online", c);
		pi.pi_state = access(path, F_OK) != 0 ||
			      sysfs_number(path) == 1 ? 2 : 1;	/* P_ONLINE */
	}
	snprintf(pi.pi_processor_type, sizeof(pi.pi_processor_type), "%.15s",
		 u->machine);
	if (strstr(u->machine, "86"))	/* x86_64, i686 */
		snprintf(pi.pi_fputypes, sizeof(pi.pi_fputypes),
			 "i387 compatible");
	pi.pi_clock = pi.pi_state == 2 ? mhz : 0;
	return pi;
}

int attach_cpuinfo(const struct spec *sp, FILE *err, const char *progname)
{
	if (sp->cpuinfo_map < 0)
		return 0;
	const struct spec_map *m = &sp->maps[sp->cpuinfo_map];
	uint32_t ncpus = (uint32_t)libbpf_num_possible_cpus();
	int32_t *mhz = calloc(ncpus, sizeof(*mhz));
	struct utsname u = { 0 };
	char path[96];

	if (!mhz)
		return -ENOMEM;
	cpus_mhz(mhz, ncpus);
	uname(&u);
	for (uint32_t c = 0; c < ncpus; c++) {
		snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%u/"
			 "topology/physical_package_id", c);
		struct cpu_topology t = { sysfs_number(path), cpu_node(c),
					  cpu_pinfo(c, &u, mhz[c]) };

		if (bpf_map_update_elem(m->fd, &c, &t, BPF_ANY) < 0) {
			int rc = -errno;

			fprintf(err, "%s: could not fill the CPU table: %s\n",
				progname, strerror(errno));
			free(mhz);
			return rc;
		}
	}
	free(mhz);
	return 0;
}

static int attach_raw_tp(const struct spec_prog *p, struct attach_set *set,
			 FILE *err, const char *progname)
{
	const char *tp = p->attach == ATTACH_RAW_TP ? p->probe->tp_event
			 : p->attach == ATTACH_SYS_ENTER ? "sys_enter" : "sys_exit";
	int fd = bpf_raw_tracepoint_open(tp, p->fd);

	if (fd < 0) {
		int e = errno;

		fprintf(err, "%s: could not attach to raw tracepoint %s: %s\n",
			progname, tp, strerror(e));
		return -e;
	}
	keep_fd(set, fd);
	return 0;
}

/* A cpu-clock timer on one CPU running the program every period. */
static int timer_on_cpu(const struct spec_prog *p, int cpu)
{
	struct perf_event_attr attr = {
		.type = PERF_TYPE_SOFTWARE,
		.size = sizeof(attr),
		.config = PERF_COUNT_SW_CPU_CLOCK,
		.sample_period = p->period_ns,
		.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED,
		.disabled = 1,
	};
	int fd = (int)syscall(SYS_perf_event_open, &attr, -1, cpu, -1,
			      PERF_FLAG_FD_CLOEXEC);

	if (fd < 0)
		return -errno;
	if (ioctl(fd, PERF_EVENT_IOC_SET_BPF, p->fd) < 0 ||
	    ioctl(fd, PERF_EVENT_IOC_ENABLE, 0) < 0) {
		int e = errno;

		close(fd);
		return -e;
	}
	return fd;
}

/* the timer of p on cpu, set->fds[idx] (-1: none yet) */
static void keep_timer(struct attach_set *set, const struct spec_prog *p,
		       int cpu, int idx)
{
	if (set->ntimers == set->tcap) {
		int cap = set->tcap ? 2 * set->tcap : 16;
		struct attach_timer *v = realloc(set->timers, sizeof(*v) * (size_t)cap);

		if (!v) {
			fprintf(stderr, "dscope: out of memory\n");
			abort();
		}
		set->timers = v;
		set->tcap = cap;
	}
	set->timers[set->ntimers++] = (struct attach_timer){ p, cpu, idx, 0 };
}

static int attach_timer(const struct spec_prog *p, struct attach_set *set,
			FILE *err, const char *progname)
{
	int ncpus = libbpf_num_possible_cpus(), attached = 0, last = 0;

	for (int cpu = 0; cpu < ncpus; cpu++) {
		int fd = timer_on_cpu(p, cpu);

		if (fd < 0) {
			last = fd;	/* an offline CPU: ENODEV */
			if (p->attach == ATTACH_PROFILE)
				keep_timer(set, p, cpu, -1);
			continue;
		}
		keep_timer(set, p, cpu, set->n);
		keep_fd(set, fd);
		attached++;
		if (p->attach == ATTACH_TICK)
			break;
	}
	if (attached)
		return 0;
	fprintf(err, "%s: could not start a cpu-clock perf event for %s: %s\n",
		progname, p->probe ? p->probe->name : p->name, strerror(-last));
	return last;
}

void attach_ending_signals(sigset_t *s)
{
	sigemptyset(s);
	sigaddset(s, SIGINT);
	sigaddset(s, SIGTERM);
	sigaddset(s, SIGHUP);
}

int attach_between(struct attach_set *set)
{
	sigset_t ending, pending;

	attach_ending_signals(&ending);
	if (sigpending(&pending) == 0)
		for (int sig = 1; sig < NSIG; sig++)
			if (sigismember(&ending, sig) == 1 &&
			    sigismember(&pending, sig) == 1)
				return -EINTR;
	return set->between ? set->between(set->between_arg) : 0;
}

static int attach_each(const struct spec *sp, struct attach_set *set,
		       FILE *err, const char *progname)
{
	for (int i = 0; i < sp->nprogs; i++) {
		const struct spec_prog *p = &sp->progs[i];
		int rc = 0;

		switch (p->attach) {
		case ATTACH_SYS_ENTER:
		case ATTACH_SYS_EXIT:
		case ATTACH_RAW_TP:
			rc = attach_raw_tp(p, set, err, progname);
			break;
		case ATTACH_PROFILE:
		case ATTACH_TICK:
			rc = attach_timer(p, set, err, progname);
			break;
		default:
			break;
		}
		if (rc < 0)
			return rc;
	}
	return uprobe_attach(sp, set, err, progname);
}

int attach_all(const struct spec *sp, struct attach_set *set, FILE *err,
	       const char *progname)
{
	sigset_t ending, old;
	int rc;

	attach_ending_signals(&ending);
	pthread_sigmask(SIG_BLOCK, &ending, &old);
	rc = attach_each(sp, set, err, progname);
	if (rc < 0 && rc != -ECANCELED)
		detach_all(set);
	/* a signal held back is delivered here, after the detach */
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return rc;
}

static int cmp_fd(const void *a, const void *b)
{
	return *(const int *)a - *(const int *)b;
}

/* In the child: close every fd but fds[0..n) (sorted). */
static void keep_only(const int *fds, int n)
{
	unsigned lo = 0;

	for (int i = 0; i < n; i++) {
		if ((unsigned)fds[i] > lo)
			close_range(lo, (unsigned)fds[i] - 1, 0);
		lo = (unsigned)fds[i] + 1;
	}
	close_range(lo, ~0u, 0);
}

/* fd into sorted fds[0..n), whose slot n is free (see detach_all); fds */
static int *insert_fd(int *fds, int n, int fd)
{
	int i = n;

	for (; i > 0 && fds[i - 1] > fd; i--)
		fds[i] = fds[i - 1];
	fds[i] = fd;
	return fds;
}

/*
 * A kprobe perf event's release waits out grace periods partly outside
 * the kernel's locks, so several closed at once overlap: measured in
 * Debian 12's 6.1 under TCG, 40 kprobes with their links released in
 * 3.8-4.4 s from one thread, 2.5-2.8 s from eight (uprobes gain nothing,
 * below, and lose nothing).  Each of RELEASE_THREADS closes every
 * RELEASE_THREADS-th fd; where a thread cannot start, this one closes.
 */
#define RELEASE_THREADS 8

struct closer {
	const int *fds;
	int n, k;
};

static void *close_every(void *arg)
{
	const struct closer *c = arg;

	for (int i = c->k; i < c->n; i += RELEASE_THREADS)
		close(c->fds[i]);
	return NULL;
}

static void close_from_threads(const int *fds, int n)
{
	struct closer c[RELEASE_THREADS];
	pthread_t t[RELEASE_THREADS];
	bool started[RELEASE_THREADS] = { 0 };

	for (int k = 0; k < RELEASE_THREADS; k++) {
		c[k] = (struct closer){ fds, n, k };
		started[k] = k > 0 && n > 1 &&
			     pthread_create(&t[k], NULL, close_every, &c[k]) == 0;
	}
	for (int k = 0; k < RELEASE_THREADS; k++)
		if (!started[k])
			close_every(&c[k]);
	for (int k = 1; k < RELEASE_THREADS; k++)
		if (started[k])
			pthread_join(t[k], NULL);
}

/*
 * Releasing a uprobe perf event unregisters its trace event and waits
 * out RCU grace periods under the kernel's event_mutex: ~100 ms each
 * here, one after another whatever the number of threads closing them
 * (measured: 80 events, 8.2 s from one thread, 8.4 s from twenty); the
 * BPF link on each takes ~30 ms more.  The programs do nothing by now
 * (dscope__stop set the state their prologue tests), so the wait is
 * given to a grandchild holding the last references.  It closes every
 * other fd (the end of pipe `kept`: the caller then knows it holds no
 * output of ours), waits for the caller to drop its own references (pipe
 * `dropped`: whoever closes last pays), then releases the events.
 * Killing it loses nothing: the kernel closes what it held.  Without a
 * child, the events are closed here.
 */
static void release_in_child(int *fds, int n)
{
	int kept[2] = { -1, -1 }, dropped[2] = { -1, -1 };
	pid_t pid = -1;
	char c;

	qsort(fds, (size_t)n, sizeof(*fds), cmp_fd);
	if (pipe2(kept, O_CLOEXEC) == 0 && pipe2(dropped, O_CLOEXEC) == 0)
		pid = fork();
	if (pid == 0) {
		if (fork() != 0)	/* reaped by init, not by dscope */
			_exit(0);
		setsid();	/* a ^C meant for the shell is not for it */
		prctl(PR_SET_NAME, "dscope-detach", 0, 0, 0);
		keep_only(insert_fd(fds, n, dropped[0]), n + 1);
		while (read(dropped[0], &c, 1) < 0 && errno == EINTR)
			;
		close_from_threads(fds, n + 1);
		_exit(0);
	}
	if (pid > 0) {
		close(kept[1]);
		close(dropped[0]);
		kept[1] = dropped[0] = -1;
		waitpid(pid, NULL, 0);
		while (read(kept[0], &c, 1) < 0 && errno == EINTR)
			;
	}
	for (int i = 0; i < n; i++)
		close(fds[i]);	/* the last reference if there is no child */
	for (int i = 0; i < 2; i++) {	/* closing dropped[1] lets it go on */
		if (kept[i] >= 0)
			close(kept[i]);
		if (dropped[i] >= 0)
			close(dropped[i]);
	}
}

void detach_all(struct attach_set *set)
{
	for (int i = 0; i < set->n; i++)
		close(set->fds[i]);
	if (set->nslow) {
		attach_keep_slow_fd(set, -1);	/* room for the child's pipe */
		release_in_child(set->slow, set->nslow - 1);
	}
	free(set->fds);
	free(set->slow);
	free(set->timers);
	memset(set, 0, sizeof(*set));
}

bool attach_cpu_online(int cpu)
{
	char path[64], c = '1';
	int fd;

	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/online", cpu);
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return errno == ENOENT && cpu == 0;
	if (read(fd, &c, 1) != 1)
		c = '0';
	close(fd);
	return c == '1';
}

void attach_revive(struct attach_set *set)
{
	for (int i = 0; i < set->ntimers; i++) {
		struct attach_timer *t = &set->timers[i];
		uint64_t r[2] = { 0, t->enabled };	/* value, time enabled */
		int fd;

		if (t->idx >= 0 && read(set->fds[t->idx], r, sizeof(r)) == sizeof(r) &&
		    r[1] != t->enabled) {
			t->enabled = r[1];
			continue;	/* running */
		}
		if (!attach_cpu_online(t->cpu) || (fd = timer_on_cpu(t->p, t->cpu)) < 0)
			continue;
		t->enabled = 0;
		if (t->idx >= 0) {
			close(set->fds[t->idx]);
			set->fds[t->idx] = fd;
		} else {
			t->idx = set->n;
			keep_fd(set, fd);
		}
	}
}

int attach_run_once(const struct spec *sp, enum spec_attach which,
		    const uint64_t *args_in, FILE *err, const char *progname)
{
	static const char *const names[] = {
		[ATTACH_BEGIN] = "BEGIN", [ATTACH_END] = "END",
		[ATTACH_ERROR] = "ERROR",
	};

	for (int i = 0; i < sp->nprogs; i++) {
		const struct spec_prog *p = &sp->progs[i];
		uint64_t args[12] = { 0 };

		if (args_in)
			memcpy(args, args_in, sizeof(args));
		LIBBPF_OPTS(bpf_test_run_opts, opts, .ctx_in = args,
			    .ctx_size_in = sizeof(args));

		if (p->attach != which)
			continue;
		if (bpf_prog_test_run_opts(p->fd, &opts) < 0) {
			int e = errno;

			fprintf(err, "%s: could not run %s: %s\n", progname,
				names[which], strerror(e));
			return -e;
		}
	}
	return 0;
}
