/*
 * uprobe.c -- pid and usdt probes onto uprobes.  See uprobe.h.
 *
 * A kernel without uprobe_multi links (kcaps.h; Debian 12's 6.1) gets
 * one perf event of the uprobe PMU per probe, the one program linked to
 * each with the probe's cookie (BPF_LINK_CREATE on the perf event, 5.15+),
 * so the program tells the probes apart as it does under a multi link.
 * load.c loaded it without the multi attach type then.  Before 5.15,
 * without either, each probe has a copy of the program that knows it,
 * set on its event by ioctl (perf_set_prog).  The PMU describes
 * its own config bits in sysfs (format/retprobe, format/ref_ctr_offset);
 * they are read from there, not assumed.
 */
#include "rt/uprobe.h"

#include <bpf/bpf.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/capability.h>
#include <linux/perf_event.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "prov/catalog.h"
#include "prov/fbt.h"
#include "kern/kcaps.h"
#include "kern/lockdown.h"
#include "obj/ksym.h"
#include "rt/load.h"
#include "obj/usym.h"
#include "kern/uprobe_multi.h"

#define PMU_DIR "/sys/bus/event_source/devices/uprobe/"
#define KPROBE_PMU_DIR "/sys/bus/event_source/devices/kprobe/"

/* A PMU's type (DIR "type"), from sysfs; <0 if absent. */
static int pmu_type(const char *dir)
{
	char path[128];
	int type = -1;
	FILE *f;

	snprintf(path, sizeof(path), "%stype", dir);
	if ((f = fopen(path, "re"))) {
		if (fscanf(f, "%d", &type) != 1)
			type = -1;
		fclose(f);
	}
	return type;
}

/* The config bit a PMU's format/retprobe names ("config:0"). */
static uint64_t pmu_retprobe_bit(const char *dir)
{
	char path[128];
	int bit = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%sformat/retprobe", dir);
	if ((f = fopen(path, "re"))) {
		if (fscanf(f, "config:%d", &bit) != 1 || bit < 0 || bit > 63)
			bit = 0;
		fclose(f);
	}
	return 1ull << bit;
}

int uprobe_pmu_type(void)
{
	static int type = -2;

	if (type == -2)
		type = pmu_type(PMU_DIR);
	return type;
}

static uint64_t retprobe_bit(void)
{
	static uint64_t bit;

	if (!bit)
		bit = pmu_retprobe_bit(PMU_DIR);
	return bit;
}

/* How a program is put on a perf event (attach_perf, attach_kprobe). */
struct perf_prog {
	const struct spec_prog *prog;
	int fd;			/* prog's loaded fd for perf events */
	FILE *err;		/* for a copy's verifier log */
	const char *progname;
};

/*
 * The program onto perf event pfd for the probe of uprobes[] index site:
 * a BPF link carrying the site as its cookie (5.15+).  Without cookies,
 * a copy of the program that knows its site (load_for_site), set on the
 * event by ioctl where there are no links either (before 5.15): the
 * event holds the program then, and closing the event -- at dscope's
 * exit, even by kill -9 -- detaches it as closing a link does.  keep
 * takes the descriptors.
 */
static int perf_set_prog(const struct perf_prog *pp, int pfd, uint64_t site,
			 void (*keep)(struct attach_set *, int), struct attach_set *set)
{
	LIBBPF_OPTS(bpf_link_create_opts, lo, .perf_event.bpf_cookie = site);
	int fd = pp->fd, lfd;

	if (pp->prog->site_insn >= 0) {
		if ((fd = load_for_site(pp->prog, (int)site, pp->err, pp->progname)) < 0)
			return fd;
		attach_keep_fd(set, fd);
	}
	if (!kcaps_has(KCAP_PERF_LINK))
		return ioctl(pfd, PERF_EVENT_IOC_SET_BPF, fd) < 0 ? -errno : 0;
	lfd = bpf_link_create(fd, pfd, BPF_PERF_EVENT, &lo);
	if (lfd < 0)
		return -errno;
	keep(set, lfd);
	return 0;
}

/* One probe as a perf event with the program on it (perf_set_prog);
 * -errno (ENOTSUPP: an instruction uprobes cannot handle). */
static int attach_perf(const struct perf_prog *pp, const struct spec_uprobe *u, bool ret,
		       uint64_t cookie, struct attach_set *set)
{
	const struct probe *p = u->probe;
	struct perf_event_attr attr = {
		.size = sizeof(attr),
		/* format/ref_ctr_offset: config:32-63 */
		.config = (ret ? retprobe_bit() : 0) | u->ref_ctr << 32,
		.config1 = (uint64_t)(uintptr_t)p->upath,
		.config2 = u->offset,
	};
	int type = uprobe_pmu_type(), pfd;

	if (type < 0)
		return -ENOENT;
	attr.type = (uint32_t)type;
	pfd = (int)syscall(SYS_perf_event_open, &attr, p->upid, -1, -1,
			   PERF_FLAG_FD_CLOEXEC);
	if (pfd < 0)
		return -errno;
	/* released in the background (attach.h), but for a USDT semaphore:
	 * the application's is-enabled branch must be off once we exit */
	void (*keep)(struct attach_set *, int) = u->ref_ctr ? attach_keep_fd
							    : attach_keep_slow_fd;

	keep(set, pfd);
	return perf_set_prog(pp, pfd, cookie, keep, set);
}

/*
 * fbt: one kprobe perf event per probe, on the function by name
 * ("module:function" for a module's: kallsyms resolves either), the
 * program linked to it with the probe's cookie, as a pid probe without
 * uprobe_multi.  A kprobe event fires on every CPU whatever the perf
 * event's cpu, which must name one.  -errno; ENOENT or EINVAL: the kernel
 * will not probe this function (blacklisted, notrace, gone).
 */
static int attach_kprobe(const struct perf_prog *pp, const struct spec_uprobe *u, bool ret,
			 uint64_t cookie, struct attach_set *set)
{
	const struct probe *p = u->probe;
	char sym[256];
	struct perf_event_attr attr = { .size = sizeof(attr) };
	int type = pmu_type(KPROBE_PMU_DIR), pfd;

	if (type < 0)
		return -ENOENT;
	if (strcmp(p->mod, "vmlinux") == 0)
		snprintf(sym, sizeof(sym), "%s", p->func);
	else
		snprintf(sym, sizeof(sym), "%s:%s", p->mod, p->func);
	attr.type = (uint32_t)type;
	attr.config = ret ? pmu_retprobe_bit(KPROBE_PMU_DIR) : 0;
	attr.config1 = (uint64_t)(uintptr_t)sym;	/* kprobe_func */
	pfd = (int)syscall(SYS_perf_event_open, &attr, -1, 0, -1,
			   PERF_FLAG_FD_CLOEXEC);
	if (pfd < 0)
		return -errno;
	attach_keep_slow_fd(set, pfd);
	return perf_set_prog(pp, pfd, cookie, attach_keep_slow_fd, set);
}

/*
 * A probe on perf events holds two descriptors (the event, its link):
 * (without kprobe_multi) fbt:::entry is some 40,000 probes, far past the usual soft limit of
 * 1024.  So the limit is raised to what the probes need, the hard limit
 * with it when the kernel lets us (root: up to fs.nr_open).  Too few is
 * said once, before anything attaches.
 */
static int want_fds(const struct spec *sp, bool kprobe_multi, FILE *err,
		    const char *progname)
{
	struct rlimit rl;
	rlim_t need = 256, nr_open = 1 << 20;
	FILE *f;

	for (int i = 0; i < sp->nuprobes; i++) {
		enum spec_attach a = sp->uprobes[i].att;
		bool user = a == ATTACH_UPROBE || a == ATTACH_URETPROBE ||
			    a == ATTACH_USDT;

		bool kprobe = a == ATTACH_KPROBE || a == ATTACH_KRETPROBE;

		if (!(user && kcaps_has(KCAP_UPROBE_MULTI)) &&
		    !(kprobe && kprobe_multi))
			need += 2;
	}
	if (getrlimit(RLIMIT_NOFILE, &rl) < 0 || rl.rlim_cur >= need)
		return 0;
	if ((f = fopen("/proc/sys/fs/nr_open", "re"))) {
		unsigned long n;

		if (fscanf(f, "%lu", &n) == 1)
			nr_open = n;
		fclose(f);
	}
	if (rl.rlim_max < need) {
		struct rlimit hard = { need < nr_open ? need : nr_open,
				       need < nr_open ? need : nr_open };

		if (setrlimit(RLIMIT_NOFILE, &hard) == 0)
			rl = hard;
	}
	rl.rlim_cur = rl.rlim_max < need ? rl.rlim_max : need;
	setrlimit(RLIMIT_NOFILE, &rl);
	if (rl.rlim_cur >= need)
		return 0;
	fprintf(err, "%s: %d probes need %lu file descriptors, and the limit is "
		"%lu (ulimit -n; fs.nr_open): name fewer functions\n", progname,
		sp->nuprobes, (unsigned long)need, (unsigned long)rl.rlim_cur);
	return -EMFILE;
}

/*
 * The fbt probes the kernel will not take: counted, the first named, and
 * said in one line once the others are attached.
 */
struct refused {
	int n, last;
	const struct probe *first;
};

static void refuse(struct refused *r, const struct probe *p, int rc)
{
	if (!r->n++)
		r->first = p;
	r->last = rc;
}

static void say_refused(const struct refused *r, FILE *err, const char *progname)
{
	if (r->n)
		fprintf(err, "%s: %d fbt probe%s left out: the kernel will not "
			"probe %s%s (%s)\n", progname, r->n, r->n == 1 ? "" : "s",
			r->first->func, r->n > 1 ? " and others" : "",
			strerror(-r->last));
}

/* The errors by which the kernel refuses one function (not the tracing
 * as a whole): not a site ftrace patches, blacklisted, gone, taken. */
static bool refuses_function(int rc)
{
	return rc == -ENOENT || rc == -EINVAL || rc == -EOPNOTSUPP ||
	       rc == -EBUSY || rc == -EADDRNOTAVAIL || rc == -EILSEQ ||
	       rc == -ESRCH;
}

/*
 * An attach storm takes seconds to an hour (below), so a terminal is
 * shown how far it is: a line redrawn every PROGRESS_EVERY probes, and
 * cleared at the end (done == total) or when it stops.
 */
#define PROGRESS_EVERY 500

static void attach_progress(FILE *err, const char *progname, int done, int total)
{
	if (total < 2 * PROGRESS_EVERY ||
	    (done % PROGRESS_EVERY != 0 && done != total) || !isatty(fileno(err)))
		return;
	if (done == total)
		fprintf(err, "\r\033[K");
	else
		fprintf(err, "\r%s: attaching %s probes: %d of %d", progname,
			"fbt", done, total);
	fflush(err);
}

/* An attach stopped between batches (attach_between): the progress
 * line cleared, and a signal said (the budget says itself, with how far
 * the attach came: set->stopped). */
static void attach_stopped(struct attach_set *set, FILE *err,
			   const char *progname, int rc, int done, int total,
			   const char *prov)
{
	attach_progress(err, progname, total, total);
	snprintf(set->stopped, sizeof(set->stopped), "attaching %d of %d %s probes",
		 done, total, prov);
	if (rc == -EINTR)
		fprintf(err, "%s: could not enable tracing: interrupted after "
			"attaching %d of %d %s probes (all released)\n",
			progname, done, total, prov);
}

/* What stops an attach: a signal, the budget (attach_between). */
static bool stops(int rc)
{
	return rc == -EINTR || rc == -ECANCELED;
}

/*
 * How many functions one kprobe_multi link takes.  The link is made and
 * released in one system call that no signal interrupts, so a batch
 * bounds how long dscope is deaf to ^C and to its budget while a storm
 * attaches.  Measured in Debian's 6.12 under TCG (qemu, one host core a
 * vCPU), an empty program on N of its 41,096 traceable functions: one
 * link of 1,000 took 0.12 s to attach and 0.24 s to release, 5,000
 * 0.66 s and 0.61 s, 20,000 3.4 s and 2.3 s, all 41,096 8.1 s and 6.2 s
 * (the patching of each site; a release also waits out an RCU-tasks
 * grace period, ~0.08 s whatever its size).  All of them in links of
 * 1,000: 14.7 s and 10.7 s (0.4 s the longest link); of 5,000: 8.4 s and
 * 7.7 s (1.9 s the longest: a link costs more as more functions already
 * probed fire while it patches).  So 5,000: no slower than one link, and
 * deaf for two seconds at most under emulation, milliseconds on
 * hardware.
 */
#define KPROBE_MULTI_BATCH 5000

/*
 * One link for addrs[0..n), with their cookies.  One function the kernel
 * will not probe refuses the whole link, so a refused link is split in
 * halves until that function stands alone, left out (r), the rest
 * linked; any other error is returned.
 */
static int link_kprobes(const struct spec *sp, const struct spec_prog *prog,
			const uint64_t *addrs, const uint64_t *cookies, size_t n,
			struct attach_set *set, struct refused *r)
{
	LIBBPF_OPTS(bpf_link_create_opts, lo,
		    .kprobe_multi.addrs = (const unsigned long *)addrs,
		    .kprobe_multi.cookies = (const __u64 *)cookies,
		    .kprobe_multi.cnt = (uint32_t)n,
		    .kprobe_multi.flags = prog->attach == ATTACH_KRETPROBE
					  ? BPF_F_KPROBE_MULTI_RETURN : 0);
	int lfd = bpf_link_create(prog->fd, 0, BPF_TRACE_KPROBE_MULTI, &lo), rc;

	if (lfd >= 0) {
		attach_keep_fd(set, lfd);
		return 0;
	}
	if (!refuses_function(rc = -errno))
		return rc;
	if (n == 1) {
		refuse(r, sp->uprobes[cookies[0]].probe, rc);
		return 0;
	}
	rc = link_kprobes(sp, prog, addrs, cookies, n / 2, set, r);
	return rc < 0 ? rc : link_kprobes(sp, prog, addrs + n / 2, cookies + n / 2,
					  n - n / 2, set, r);
}

/* fbt probe u is a kprobe the kernel's lockdown takes away: said. */
static void say_lockdown(const struct probe *p, FILE *err, const char *progname)
{
	/* LOCKDOWN_KPROBES: the mode takes kprobes away */
	fprintf(err, "%s: could not enable tracing: fbt probe %s:%s:%s:%s is a "
		"kprobe, which this kernel does not allow (kernel "
		"lockdown=confidentiality)\n", progname, p->prov, p->mod,
		p->func, p->name);
}

/*
 * Every fbt probe of prog as kprobe_multi links of KPROBE_MULTI_BATCH
 * functions: the functions by address (fbt_func_addrs: a name in two
 * modules is the probe's own), each with its probe's cookie.  A link
 * attaches and detaches thousands of functions at once, where perf
 * events take one system call (and, on release, an RCU grace period)
 * each.  Between batches a signal or the budget can stop it
 * (attach_between).  A function with no address is left out, said.
 */
static int attach_kprobe_multi(const struct spec *sp,
			       const struct spec_prog *prog,
			       struct attach_set *set, FILE *err,
			       const char *progname)
{
	size_t n = 0, m = 0, missing = 0, at = 0;
	const char **mods = calloc((size_t)sp->nuprobes + 1, sizeof(*mods));
	const char **names = calloc((size_t)sp->nuprobes + 1, sizeof(*names));
	uint64_t *addrs = calloc((size_t)sp->nuprobes + 1, sizeof(*addrs));
	uint64_t *cookies = calloc((size_t)sp->nuprobes + 1, sizeof(*cookies));
	const char *first = NULL;
	struct refused r = { 0 };
	int rc = 0;

	if (!mods || !names || !addrs || !cookies) {
		rc = -ENOMEM;
		goto out;
	}
	for (int i = 0; i < sp->nuprobes; i++) {
		const struct probe *p = sp->uprobes[i].probe;

		if (sp->uprobes[i].att != prog->attach)
			continue;
		mods[n] = p->mod;
		names[n] = p->func;
		cookies[n++] = (uint64_t)i;
	}
	fbt_func_addrs(n, mods, names, addrs);
	for (size_t i = 0; i < n; i++) {	/* keep the listed ones */
		if (!addrs[i]) {
			if (!missing++)
				first = names[i];
			continue;
		}
		addrs[m] = addrs[i];
		cookies[m++] = cookies[i];
	}
	if (missing)
		fprintf(err, "%s: %zu fbt probe%s left out: the kernel lists no "
			"address for %s%s\n", progname, missing,
			missing == 1 ? "" : "s", first,
			missing > 1 ? " and others" : "");
	for (; at < m && rc == 0; at += KPROBE_MULTI_BATCH) {
		size_t k = m - at < KPROBE_MULTI_BATCH ? m - at : KPROBE_MULTI_BATCH;

		attach_progress(err, progname, (int)at, (int)m);
		if ((rc = attach_between(set)) == 0)
			rc = link_kprobes(sp, prog, addrs + at, cookies + at, k, set, &r);
	}
	if (stops(rc))
		attach_stopped(set, err, progname, rc, (int)(at - KPROBE_MULTI_BATCH),
			       (int)m, "fbt");
	else
		attach_progress(err, progname, (int)m, (int)m);
	if (rc == -EPERM && lockdown_mode() == LOCKDOWN_CONFIDENTIALITY)
		say_lockdown(sp->uprobes[cookies[0]].probe, err, progname);
	else if (rc < 0 && !stops(rc))
		fprintf(err, "%s: could not attach fbt probes: the kernel refused a "
			"kprobe_multi link: %s\n", progname, strerror(-rc));
	say_refused(&r, err, progname);
out:
	free(mods);
	free(names);
	free(addrs);
	free(cookies);
	return rc;
}

/*
 * Every fbt probe of prog: kprobe_multi links where the kernel has them;
 * else a kprobe perf event each, one system call apiece -- an attach
 * storm (fbt:::entry: 37,000 on Debian 12's 6.1, which has no
 * kprobe_multi) takes minutes, under emulation an hour -- with a signal
 * or the budget looked for before each.  Those the kernel will not probe
 * are counted and said in one line, the rest traced.
 */
static int attach_kprobes(const struct spec *sp, const struct spec_prog *prog,
			  struct attach_set *set, FILE *err, const char *progname)
{
	int rc = 0, total = 0, done = 0;
	struct refused r = { 0 };

	if (load_is_multi(prog))
		return attach_kprobe_multi(sp, prog, set, err, progname);
	for (int i = 0; i < sp->nuprobes; i++)
		total += sp->uprobes[i].att == prog->attach;
	for (int i = 0; i < sp->nuprobes; i++) {
		const struct spec_uprobe *u = &sp->uprobes[i];

		if (u->att != prog->attach)
			continue;
		attach_progress(err, progname, done, total);
		if ((rc = attach_between(set)) < 0) {
			attach_stopped(set, err, progname, rc, done, total, "fbt");
			return rc;
		}
		done++;
		rc = attach_kprobe(&(struct perf_prog){ prog, prog->fd, err, progname },
				   u, prog->attach == ATTACH_KRETPROBE, (uint64_t)i, set);
		if (refuses_function(rc) && rc != -ESRCH) {
			refuse(&r, u->probe, rc);
			rc = 0;
		} else if (rc == -EPERM &&
			   lockdown_mode() == LOCKDOWN_CONFIDENTIALITY) {
			say_lockdown(u->probe, err, progname);
			return rc;
		} else if (rc < 0) {
			fprintf(err, "%s: could not attach fbt probe %s:%s:%s:%s: %s\n",
				progname, u->probe->prov, u->probe->mod,
				u->probe->func, u->probe->name, strerror(-rc));
			return rc;
		}
	}
	attach_progress(err, progname, total, total);
	say_refused(&r, err, progname);
	return rc;
}

/*
 * Every fbt probe of an fentry or fexit program: a copy of the program
 * loaded for each function (the kernel verifies it against that
 * function's BTF) and linked with the probe's cookie.  The functions were
 * chosen as ones a trampoline can take (fbt_fentry_ok), so a refusal is
 * an error, said, not a probe left out.
 */
static int attach_fentries(const struct spec *sp, const struct spec_prog *prog,
			   struct attach_set *set, FILE *err, const char *progname)
{
	bool ret = prog->attach == ATTACH_FEXIT;

	for (int i = 0; i < sp->nuprobes; i++) {
		const struct spec_uprobe *u = &sp->uprobes[i];
		int id = fbt_btf_id(u->probe), fd, lfd;
		LIBBPF_OPTS(bpf_link_create_opts, lo, .tracing.cookie = (uint64_t)i);

		if (u->att != prog->attach)
			continue;
		if (id <= 0)
			return -ENOENT;
		if ((fd = load_for_function(prog, (uint32_t)id, i, err, progname)) < 0)
			return fd;
		attach_keep_fd(set, fd);
		/* without cookies (before 6.0), the copy knows its probe and
		 * attaches as 5.5+ attach it */
		lfd = prog->site_insn >= 0 ? bpf_raw_tracepoint_open(NULL, fd)
			: bpf_link_create(fd, 0, ret ? BPF_TRACE_FEXIT : BPF_TRACE_FENTRY, &lo);
		if (lfd < 0) {
			int e = errno;

			fprintf(err, "%s: could not attach fbt probe %s:%s:%s:%s "
				"(%s): %s\n", progname, u->probe->prov,
				u->probe->mod, u->probe->func, u->probe->name,
				ret ? "fexit" : "fentry", strerror(e));
			return -e;
		}
		attach_keep_fd(set, lfd);
	}
	return 0;
}

static int fill_map(const struct spec *sp, FILE *err, const char *progname)
{
	int fd = sp->maps[sp->uprobe_map].fd;

	for (int i = 0; i < sp->nuprobes; i++) {
		const struct spec_uprobe *u = &sp->uprobes[i];
		const struct probe *p = u->probe;
		struct uprobe_entry e = { .probe_id = p->id, .mask = u->mask };
		uint32_t key = (uint32_t)i;
		uint64_t end;

		snprintf(e.func, sizeof(e.func), "%s", p->func);
		snprintf(e.mod, sizeof(e.mod), "%s", p->mod);
		snprintf(e.prov, sizeof(e.prov), "%s", p->prov);
		snprintf(e.name, sizeof(e.name), "%s", p->name);
		if (catalog_mech(p->kind) == MECH_UPROBE && strcmp(p->name, "entry") == 0)
			e.flags = UPROBE_F_ENTRY;
		if (u->att == ATTACH_FENTRY || u->att == ATTACH_FEXIT)
			e.nargs = (uint32_t)fbt_fentry_nargs(p);
		if (u->att == ATTACH_FEXIT && !ksym_range(p->func, &e.addr, &end))
			e.addr = 0;
		if (u->args)
			memcpy(e.args, u->args, sizeof(e.args));
		if (bpf_map_update_elem(fd, &key, &e, BPF_ANY) < 0) {
			fprintf(err, "%s: could not fill the uprobe table: %s\n",
				progname, strerror(errno));
			return -errno;
		}
	}
	return 0;
}

#define ENOTSUPP 524	/* the kernel's: an instruction uprobes cannot handle */

static void left_out(const struct probe *p, uint64_t off, FILE *err,
		     const char *progname)
{
	fprintf(err, "%s: probe %s:%s:%s:%s left out: uprobes cannot handle the "
		"instruction at offset 0x%llx of %s\n", progname, p->prov, p->mod,
		p->func, p->name, (unsigned long long)off, p->upath);
}

/*
 * One link for offs[0..n); when one instruction is unprobeable the whole
 * link fails with ENOTSUPP, so the halves are tried apart until each bad
 * probe stands alone: it is reported and left out, the rest attached in
 * a few links (DESIGN.md 3.5).
 */
static int link_split(const struct spec *sp, const struct spec_prog *prog,
		      const uint64_t *offs, const uint64_t *ref_ctrs,
		      const uint64_t *cookies, uint32_t n, struct attach_set *set,
		      FILE *err, const char *progname)
{
	const struct probe *first = sp->uprobes[cookies[0]].probe;
	int rc = uprobe_link_multi(prog->fd, first->upath, offs, ref_ctrs, cookies,
				   n, prog->attach == ATTACH_URETPROBE, first->upid);

	if (rc >= 0) {
		attach_keep_fd(set, rc);
		return 0;
	}
	if (rc != -ENOTSUPP)
		return rc;
	if (n == 1) {
		left_out(first, offs[0], err, progname);
		return 0;
	}
	rc = link_split(sp, prog, offs, ref_ctrs, cookies, n / 2, set, err, progname);
	if (rc == 0)
		rc = link_split(sp, prog, offs + n / 2, ref_ctrs + n / 2, cookies + n / 2,
				n - n / 2, set, err, progname);
	return rc;
}

/*
 * Without uprobe_multi: a perf event per probe (cookies[] are the probes'
 * indexes).  An unprobeable instruction fails only its own event, left
 * out and reported as link_split reports it.
 */
static int perf_each(const struct spec *sp, const struct spec_prog *prog,
		     const uint64_t *cookies, uint32_t n, struct attach_set *set,
		     FILE *err, const char *progname)
{
	static bool said;

	for (uint32_t i = 0; i < n; i++) {
		const struct spec_uprobe *u = &sp->uprobes[cookies[i]];
		int rc;

		if (u->ref_ctr && !said && !kcaps_has(KCAP_UPROBE_REFCTR)) {
			said = true;
			fprintf(err, "%s: this kernel's uprobes cannot set USDT "
				"semaphores: probes behind one stay disabled\n",
				progname);
		}
		if ((rc = attach_between(set)) < 0) {	/* ~100 ms an event */
			attach_stopped(set, err, progname, rc, (int)i, (int)n,
				       prog->attach == ATTACH_USDT ? "usdt" : "pid");
			return rc;
		}
		rc = attach_perf(&(struct perf_prog){ prog, prog->fd, err, progname }, u,
				 prog->attach == ATTACH_URETPROBE, cookies[i], set);
		if (rc == -ENOTSUPP)
			left_out(u->probe, u->offset, err, progname);
		else if (rc < 0)
			return rc;
	}
	return 0;
}

/*
 * x86's uprobes refuse an instruction with a lock or segment prefix
 * (arch/x86/kernel/uprobes.c, is_prefix_bad): such probes are found from
 * the file's bytes before the link is tried, since a refused link costs
 * ~100 ms of registering and unregistering the rest.  The bytes are read
 * with pread, not through a mapping of the file: a library replaced or
 * truncated under a running process would make a mapping fault
 * (SIGBUS), where a short read is only fewer bytes.
 */
static bool prefix_bad(int fd, uint64_t off)
{
	unsigned char b[15];
	ssize_t got = fd >= 0 && off <= INT64_MAX ?
		pread(fd, b, sizeof(b), (off_t)off) : -1;
	size_t n = got > 0 ? (size_t)got : 0;

	for (size_t i = 0; i < n && i < 15; i++) {
		switch (b[i]) {
		case 0xf0: case 0x26: case 0x2e: case 0x36: case 0x3e:
		case 0x64: case 0x65:
			return true;
		case 0x66: case 0x67: case 0xf2: case 0xf3:
			continue;
		default:
			return false;
		}
	}
	return false;
}

/* The probes of one (file, process, flavour): one link, or perf events. */
static int attach_group(const struct spec *sp, const struct spec_prog *prog,
			const int *idx, uint32_t n, struct attach_set *set,
			FILE *err, const char *progname)
{
	const struct probe *first = sp->uprobes[idx[0]].probe;
	uint64_t *offs = calloc(n, sizeof(*offs)), *cookies = calloc(n, sizeof(*cookies));
	uint64_t *ref_ctrs = calloc(n, sizeof(*ref_ctrs));
	int rc = -ENOMEM;

	if (!offs || !cookies || !ref_ctrs)
		goto out;
	int fd = elf_open(first->upath);
	uint32_t k = 0, bad = 0;

	for (uint32_t i = 0; i < n; i++) {
		const struct spec_uprobe *u = &sp->uprobes[idx[i]];
		const struct probe *p = u->probe;

		if (prefix_bad(fd, u->offset)) {
			if (bad++)
				fprintf(err, ", %s:%s", p->func, p->name);
			else
				fprintf(err, "%s: probes left out (uprobes cannot "
					"handle a lock- or segment-prefixed "
					"instruction): %s:%s", progname, p->func,
					p->name);
			continue;
		}
		offs[k] = u->offset;
		ref_ctrs[k] = u->ref_ctr;
		cookies[k++] = (uint64_t)idx[i];
	}
	if (bad)
		fprintf(err, " in %s\n", first->mod);
	if (fd >= 0)
		close(fd);
	if (!k)
		rc = 0;
	else if (kcaps_has(KCAP_UPROBE_MULTI))
		rc = link_split(sp, prog, offs, ref_ctrs, cookies, k, set, err, progname);
	else
		rc = perf_each(sp, prog, cookies, k, set, err, progname);
	if (rc == -EACCES && !kcaps_has(KCAP_UPROBE_MULTI) &&
	    !lockdown_has_cap(CAP_SYS_ADMIN))
		/* measured: the kernel refuses a uprobe perf event to
		 * CAP_PERFMON alone (6.1, and 6.18 with uprobe_multi off) */
		fprintf(err, "%s: could not attach %s probes to %s: without "
			"uprobe_multi links, this kernel attaches them as uprobe "
			"perf events, which need root or the CAP_SYS_ADMIN "
			"capability\n", progname,
			prog->attach == ATTACH_USDT ? "usdt" : "pid", first->upath);
	else if (rc < 0 && !stops(rc))
		fprintf(err, "%s: could not attach %s probes to %s (pid %d): %s\n",
			progname, prog->attach == ATTACH_USDT ? "usdt" : "pid",
			first->upath, first->upid, strerror(-rc));
out:
	free(offs);
	free(cookies);
	free(ref_ctrs);
	return rc;
}

static int attach_prog(const struct spec *sp, const struct spec_prog *prog,
		       struct attach_set *set, FILE *err, const char *progname)
{
	int *idx = calloc((size_t)sp->nuprobes + 1, sizeof(int));
	char *done = calloc((size_t)sp->nuprobes + 1, 1);
	int rc = idx && done ? 0 : -ENOMEM;

	for (int i = 0; rc == 0 && i < sp->nuprobes; i++) {
		const struct probe *p = sp->uprobes[i].probe;
		uint32_t n = 0;

		if (done[i] || sp->uprobes[i].att != prog->attach)
			continue;
		for (int j = i; j < sp->nuprobes; j++) {
			const struct probe *q = sp->uprobes[j].probe;

			if (!done[j] && q->upid == p->upid && q->upath == p->upath &&
			    sp->uprobes[j].att == prog->attach) {
				done[j] = 1;
				idx[n++] = j;
			}
		}
		rc = attach_group(sp, prog, idx, n, set, err, progname);
	}
	free(idx);
	free(done);
	return rc;
}

int uprobe_attach(const struct spec *sp, struct attach_set *set, FILE *err,
		  const char *progname)
{
	int rc = 0;

	if (sp->nuprobes == 0)
		return 0;
	if (!kcaps_has(KCAP_UPROBE_MULTI) && !kcaps_has(KCAP_UPROBE_PMU)) {
		fprintf(err, "%s: pid and usdt probes need uprobe_multi links or "
			"the uprobe PMU, and this kernel has neither (dscope -vV); "
			"the other providers work\n", progname);
		return -EOPNOTSUPP;
	}
	if ((rc = want_fds(sp, kcaps_has(KCAP_KPROBE_MULTI), err, progname)) < 0 ||
	    (rc = fill_map(sp, err, progname)) < 0)
		return rc;
	/* kretprobes first: the kprobes on one address run newest first,
	 * and an entry probe must see the function's return address
	 * before a kretprobe's handler replaces it on the stack with its
	 * trampoline's (which 5.10's unwinder then shows as the caller) */
	for (int i = 0; i < sp->nprogs && rc == 0; i++)
		if (sp->progs[i].attach == ATTACH_KRETPROBE)
			rc = attach_kprobes(sp, &sp->progs[i], set, err, progname);
	for (int i = 0; i < sp->nprogs && rc == 0; i++)
		if (sp->progs[i].attach == ATTACH_UPROBE ||
		    sp->progs[i].attach == ATTACH_URETPROBE ||
		    sp->progs[i].attach == ATTACH_USDT)
			rc = attach_prog(sp, &sp->progs[i], set, err, progname);
		else if (sp->progs[i].attach == ATTACH_KPROBE)
			rc = attach_kprobes(sp, &sp->progs[i], set, err, progname);
		else if (sp->progs[i].attach == ATTACH_FENTRY ||
			 sp->progs[i].attach == ATTACH_FEXIT)
			rc = attach_fentries(sp, &sp->progs[i], set, err, progname);
	return rc;
}
