/*
 * load.c -- create maps, patch map references, load programs.  See load.h.
 *
 * A program with subprograms (ustack()'s callbacks) must come with BTF
 * naming each function, the callbacks static: the kernel takes a
 * function's address (BPF_PSEUDO_FUNC) only then.  The BTF is the least
 * that says it -- one int, one prototype without parameters, one FUNC
 * per function -- built with libbpf and freed once the program holds it.
 * A global function (ustack()'s step where bpf_loop is missing) has a
 * prototype of one u64: the verifier checks it once, from that.
 */
#include "rt/load.h"

#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include <errno.h>
#include <linux/capability.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "kern/kcaps.h"
#include "kern/lockdown.h"
#include "kern/maps.h"

/* An outer map takes its inner maps' shape from one made before it. */
static int create_outer(const struct spec *sp, const struct spec_map *m)
{
	LIBBPF_OPTS(bpf_map_create_opts, opts,
		    .inner_map_fd = (uint32_t)sp->maps[m->inner_tmpl].fd);
	int fd = bpf_map_create(m->type, m->name, m->key_size, m->value_size,
				m->max_entries, &opts);

	return fd < 0 ? -errno : fd;
}

/* The one thing to say when the kernel refuses a map: what is needed.
 * A process that holds CAP_BPF is refused a map only by a kernel that
 * charges BPF memory to RLIMIT_MEMLOCK (before 5.11): libbpf raises the
 * limit to infinity where it may, which takes CAP_SYS_RESOURCE beyond
 * the hard limit -- so that is what is missing, not CAP_BPF. */
static void say_map_refused(FILE *err, const char *progname,
			    const char *map)
{
	struct rlimit rl;

	if (lockdown_has_cap(CAP_BPF) && !lockdown_has_cap(CAP_SYS_RESOURCE) &&
	    getrlimit(RLIMIT_MEMLOCK, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY)
		fprintf(err, "%s: this kernel charges BPF maps to the locked "
			     "memory limit (RLIMIT_MEMLOCK, %llu KiB here): raise "
			     "it (ulimit -l unlimited) or add the CAP_SYS_RESOURCE "
			     "capability (creating BPF map %s: %s)\n", progname,
			(unsigned long long)rl.rlim_cur / 1024, map,
			strerror(EPERM));
	else
		fprintf(err, "%s: tracing needs root, or the CAP_BPF and "
			     "CAP_PERFMON capabilities (creating BPF map %s: "
			     "%s)\n", progname, map, strerror(EPERM));
}

static int create_map(const struct spec *sp, struct spec_map *m, FILE *err,
		      const char *progname)
{
	uint32_t entries = m->max_entries;

	if (m->type == BPF_MAP_TYPE_PERF_EVENT_ARRAY && entries == 0)
		entries = (uint32_t)libbpf_num_possible_cpus();
	if (m->inner_tmpl)
		m->fd = create_outer(sp, m);
	else
		m->fd = kern_map_create(m->type, m->name, m->key_size,
					m->value_size, entries, m->flags);
	if (m->fd < 0) {
		int e = -m->fd;

		m->fd = -1;

		if (e == EPERM)
			say_map_refused(err, progname, m->name);
		else if (e == E2BIG && m->key_size > 512)
			/* older kernels bound a hash map's key by the BPF stack */
			fprintf(err, "%s: map %s has keys of %u bytes, and this "
				"kernel's hash maps take at most 512: use fewer or "
				"shorter string keys (-x strsize)\n", progname,
				m->name, m->key_size);
		else
			fprintf(err, "%s: could not create map %s: %s\n",
				progname, m->name, strerror(e));
		return -e;
	}
	return 0;
}

/* ld_imm64 with BPF_PSEUDO_MAP_FD/_VALUE holds a spec map index: make it
 * the map's fd. */
static void patch_maps(struct spec *sp, struct spec_prog *p)
{
	for (int i = 0; i < p->ninsns; i++) {
		struct bpf_insn *in = &p->insns[i];

		if (in->code != (BPF_LD | BPF_DW | BPF_IMM))
			continue;
		if (in->src_reg == BPF_PSEUDO_MAP_FD ||
		    in->src_reg == BPF_PSEUDO_MAP_VALUE)
			in->imm = sp->maps[in->imm].fd;
		i++;
	}
}

/* The program's functions in BTF, with func_info for each (info holds
 * 1 + p->nsubprogs records); NULL if the kernel refused it. */
static struct btf *func_btf(const struct spec_prog *p, struct bpf_func_info *info)
{
	struct btf *btf = btf__new_empty();
	int in, proto, proto1 = -1, id;

	if (!btf)
		return NULL;
	in = btf__add_int(btf, "int", 4, BTF_INT_SIGNED);
	proto = in < 0 ? in : btf__add_func_proto(btf, in);
	id = proto < 0 ? proto : btf__add_func(btf, p->name, BTF_FUNC_GLOBAL, proto);
	info[0] = (struct bpf_func_info){ 0, (uint32_t)id };
	for (int i = 0; id >= 0 && i < p->nsubprogs; i++) {
		const struct spec_subprog *s = &p->subprogs[i];

		if (s->global && proto1 < 0) {
			int u64 = btf__add_int(btf, "u64", 8, 0);

			id = proto1 = u64 < 0 ? u64 : btf__add_func_proto(btf, in);
			id = id < 0 ? id : btf__add_func_param(btf, "w", u64);
			if (id < 0)
				break;
		}
		id = btf__add_func(btf, s->name, s->global ? BTF_FUNC_GLOBAL : BTF_FUNC_STATIC,
				   s->global ? proto1 : proto);
		info[i + 1] = (struct bpf_func_info){ s->insn, (uint32_t)id };
	}
	if (id < 0 || btf__load_into_kernel(btf) < 0) {
		btf__free(btf);
		return NULL;
	}
	return btf;
}

/*
 * The attach type p is loaded with.  Without uprobe_multi (kprobe_multi)
 * links, uprobe.c attaches perf events, which want a program without the
 * multi attach type.
 */
static uint32_t attach_type(const struct spec_prog *p)
{
	uint32_t t = p->expected_attach_type;

	if ((t == ATTACH_TYPE_UPROBE_MULTI && !kcaps_has(KCAP_UPROBE_MULTI)) ||
	    (t == BPF_TRACE_KPROBE_MULTI && !kcaps_has(KCAP_KPROBE_MULTI)))
		return 0;
	return t;
}

/* The verifier's words for a helper it withholds: "unknown func" (6.1)
 * or "program of this type cannot use helper" (later kernels). */
static bool write_user_refused(const char *log)
{
	return log && (strstr(log, "unknown func bpf_probe_write_user") ||
		       strstr(log, "cannot use helper bpf_probe_write_user"));
}

/* p into the kernel, with attach type att: its fd, or -errno (said on
 * err).  btf_id: the function an fentry/fexit program attaches to, 0 for
 * the others. */
static int load_prog(const struct spec_prog *p, uint32_t att, uint32_t btf_id,
		     FILE *err, const char *progname)
{
	size_t logsz = 4 << 20;
	char *log = NULL;
	struct btf *btf = NULL;
	struct bpf_func_info info[1 + p->nsubprogs];
	LIBBPF_OPTS(bpf_prog_load_opts, opts, .expected_attach_type = att,
		    .attach_btf_id = btf_id,
		    .prog_flags = p->sleepable ? BPF_F_SLEEPABLE : 0);
	int fd;

	if (p->nsubprogs) {
		if (!(btf = func_btf(p, info))) {
			int e = errno;

			fprintf(err, "%s: the kernel rejected the BTF of BPF program "
				"%s: %s\n", progname, p->name, strerror(e));
			return -e;
		}
		opts.prog_btf_fd = (uint32_t)btf__fd(btf);
		opts.func_info = info;
		opts.func_info_cnt = (uint32_t)(1 + p->nsubprogs);
		opts.func_info_rec_size = sizeof(info[0]);
	}

	/*
	 * Once without a log; if refused, again with the verifier's account.
	 * A kernel whose log is not a ring (before 6.4) fails the load with
	 * ENOSPC when the account outgrows the buffer, and keeps its start,
	 * not the end that says why: grow it and ask again.  The reason
	 * reported is the first refusal's.
	 */
	int e = 0;

	for (int attempt = 0; attempt < 4; attempt++, logsz *= 8) {
		if (attempt) {
			free(log);
			log = malloc(logsz);
			if (!log)
				break;
			log[0] = '\0';
			opts.log_buf = log;
			opts.log_size = (uint32_t)logsz;
			opts.log_level = 1;
		}
		fd = bpf_prog_load(p->type, p->name, "GPL", p->insns,
				   (size_t)p->ninsns, &opts);
		if (fd >= 0) {
			free(log);
			btf__free(btf);
			return fd;
		}
		if (!attempt)
			e = errno;
		else if (errno != ENOSPC || e == ENOSPC)
			break;
	}

	fprintf(err, "%s: the kernel rejected BPF program %s (%d instructions): %s\n",
		progname, p->name, p->ninsns, strerror(e));
	if (e == EPERM)
		fprintf(err, "%s: loading BPF programs needs root, or CAP_BPF and "
			     "CAP_PERFMON\n", progname);
	else if (write_user_refused(log) && !lockdown_has_cap(CAP_SYS_ADMIN))
		/* the kernel offers it to CAP_SYS_ADMIN only */
		fprintf(err, "%s: copyout() and copyoutstr() write with "
			     "bpf_probe_write_user, which needs root or the "
			     "CAP_SYS_ADMIN capability\n", progname);
	else if (write_user_refused(log))
		/* the kernel's lockdown (integrity or stricter) takes it away */
		fprintf(err, "%s: copyout() and copyoutstr() write with "
			     "bpf_probe_write_user, which this kernel does not "
			     "allow (kernel lockdown)\n", progname);
	else if (log && log[0])
		fprintf(err, "verifier log:\n%s\n", log);
	free(log);
	btf__free(btf);
	return -e;
}

/*
 * The kernel's "trace type" programs (verifier.c's is_tracing_prog_type):
 * kprobes, tracepoints, raw tracepoints and perf events, not the BTF
 * programs (fentry, tp_btf) of BPF_PROG_TYPE_TRACING.
 */
static bool trace_type(enum bpf_prog_type t)
{
	return t == BPF_PROG_TYPE_KPROBE || t == BPF_PROG_TYPE_TRACEPOINT ||
	       t == BPF_PROG_TYPE_RAW_TRACEPOINT || t == BPF_PROG_TYPE_PERF_EVENT;
}

/*
 * Before 6.1 a trace type program may not use a hash map allocated as it
 * fills: a perf_event program is refused, and the others load with a
 * kernel warning that taints the kernel ("trace type BPF program uses
 * run-time allocation"): a kprobe or tracepoint can fire inside the
 * memory allocator, and a run-time allocation there is unsafe.  The
 * kernel relaxed both at once (6.1's BPF memory allocator), so
 * perf_noprealloc (kcaps.h), tried on a perf_event program, answers for
 * all of them: without it, the hash maps such programs name are
 * allocated whole -- aggregations, dynamic variables, stacks: aggsize's
 * entries per map (per CPU for an aggregation) from the start.
 */
static void prealloc_map(struct spec_map *m)
{
	/* the kernel is asked only when such a map is named by one */
	if ((m->type == BPF_MAP_TYPE_HASH || m->type == BPF_MAP_TYPE_PERCPU_HASH) &&
	    (m->flags & BPF_F_NO_PREALLOC) && !kcaps_has(KCAP_PERF_NOPREALLOC))
		m->flags &= ~(uint32_t)BPF_F_NO_PREALLOC;
}

/* Map mi, named by a trace type program, and if it is an outer map (a
 * script's maps past 64: spec.h) its inner maps too -- the program
 * reaches them through it, and an inner map must have its template's
 * flags: tst.many-maps made 5.10 warn before they were included. */
static void prealloc_named(struct spec *sp, int mi)
{
	struct spec_map *m = &sp->maps[mi];

	prealloc_map(m);
	if (!m->inner_tmpl)
		return;
	prealloc_map(&sp->maps[m->inner_tmpl]);
	for (int i = 0; i < sp->nnests; i++)
		if (sp->nests[i].outer == mi)
			prealloc_map(&sp->maps[sp->nests[i].inner]);
}

static void prealloc_for_perf(struct spec *sp)
{
	for (int i = 0; i < sp->nprogs; i++) {
		const struct spec_prog *p = &sp->progs[i];

		if (!trace_type(p->type))
			continue;
		for (int k = 0; k < p->ninsns; k++) {
			const struct bpf_insn *in = &p->insns[k];

			if (in->code != (BPF_LD | BPF_DW | BPF_IMM))
				continue;
			k++;
			if (in->src_reg == BPF_PSEUDO_MAP_FD ||
			    in->src_reg == BPF_PSEUDO_MAP_VALUE)
				prealloc_named(sp, in->imm);
		}
	}
}

int load_spec(struct spec *sp, FILE *err, const char *progname)
{
	int rc;

	prealloc_for_perf(sp);
	for (int i = 0; i < sp->nmaps; i++) {
		rc = create_map(sp, &sp->maps[i], err, progname);
		if (rc < 0)
			goto err_out;
	}
	for (int i = 0; i < sp->nnests; i++) {	/* script maps past 64 */
		const struct spec_nest *n = &sp->nests[i];
		int inner = sp->maps[n->inner].fd;

		if (bpf_map_update_elem(sp->maps[n->outer].fd, &n->slot, &inner,
					BPF_ANY) < 0) {
			rc = -errno;
			fprintf(err, "%s: could not place map %s in %s: %s\n",
				progname, sp->maps[n->inner].name,
				sp->maps[n->outer].name, strerror(-rc));
			goto err_out;
		}
	}
	for (int i = 0; i < sp->nprogs; i++) {
		struct spec_prog *p = &sp->progs[i];

		patch_maps(sp, p);
		if (p->attach == ATTACH_FENTRY || p->attach == ATTACH_FEXIT)
			continue;	/* one copy per function: load_for_function */
		rc = load_prog(p, attach_type(p), 0, err, progname);
		if (rc < 0)
			goto err_out;
		p->fd = rc;
	}
	return 0;
err_out:
	unload_spec(sp);
	return rc;
}

/* p loaded with att and btf_id, as it is or (p->site_insn >= 0) as a
 * copy that serves the probe of uprobes[] index site alone. */
static int load_for(const struct spec_prog *p, uint32_t att, uint32_t btf_id, int site,
		    FILE *err, const char *progname)
{
	struct spec_prog copy = *p;
	size_t size = sizeof(*p->insns) * (size_t)p->ninsns;
	int fd;

	if (p->site_insn < 0)
		return load_prog(p, att, btf_id, err, progname);
	if (!(copy.insns = malloc(size)))
		return -ENOMEM;
	memcpy(copy.insns, p->insns, size);
	copy.insns[p->site_insn].imm = site;
	fd = load_prog(&copy, att, btf_id, err, progname);
	free(copy.insns);
	return fd;
}

int load_for_function(const struct spec_prog *p, uint32_t btf_id, int site, FILE *err,
		      const char *progname)
{
	return load_for(p, p->expected_attach_type, btf_id, site, err, progname);
}

bool load_is_multi(const struct spec_prog *p)
{
	return attach_type(p) == BPF_TRACE_KPROBE_MULTI ||
	       attach_type(p) == ATTACH_TYPE_UPROBE_MULTI;
}

int load_for_site(const struct spec_prog *p, int site, FILE *err, const char *progname)
{
	return p->site_insn < 0 ? p->fd : load_for(p, 0, 0, site, err, progname);
}

void unload_spec(struct spec *sp)
{
	for (int i = 0; i < sp->nprogs; i++) {
		if (sp->progs[i].fd >= 0)
			close(sp->progs[i].fd);
		sp->progs[i].fd = -1;
	}
	for (int i = 0; i < sp->nmaps; i++) {
		if (sp->maps[i].fd >= 0)
			close(sp->maps[i].fd);
		sp->maps[i].fd = -1;
	}
}

