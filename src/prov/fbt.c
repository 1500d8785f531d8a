/*
 * fbt.c -- function boundary tracing: fbt:MODULE:FUNCTION:entry|return for
 * every kernel function a kprobe can enter.
 *
 * The functions are the kernel's own list of what it lets be probed,
 * tracefs's available_filter_functions ("name" or "name [module]"), or,
 * where that cannot be read, kallsyms' text symbols.  Compiler clones
 * ("foo.isra.0", "foo.cold") and the padding symbols before functions
 * ("__pfx_foo") are left out: a D name cannot hold the dot, and a clone
 * is not the function a user names.  A name twice in one module (two
 * static functions) is one probe: a kprobe by name enters the first.
 * Modules are named as DTrace names them, "vmlinux" for the kernel
 * itself.
 *
 * The probes are made only when a description's provider field names fbt
 * (a glob that matches "fbt"), never for an empty provider field: some
 * 90,000 probes would be a surprise in ":::entry", and the walk costs.
 *
 * The probes of one program (entry, or return) are kprobe_multi
 * (kretprobe_multi) links of 5,000 functions where the kernel has them,
 * each function with its probe's cookie as the pid provider's
 * (rt/uprobe.c): Debian's 6.12 attaches all its 42,000 so in a minute
 * under emulation, a signal or the budget able to stop it between links.
 * Without them, a kprobe (kretprobe) perf event each, the same program
 * and cookies: one system call and, at release, an RCU grace period a
 * function.  When a script names few functions and the kernel allows it,
 * an fentry (fexit) program is loaded for each function and linked with
 * the same cookie instead (driver/compile.c's fbt_mechanism says when).
 *
 * Arguments: args[0..5] are typed from the function's BTF prototype
 * (vmlinux's BTF, or the module's own, split on vmlinux's), the
 * registers of the x86-64 calling convention, so args[0]->f_path at
 * fbt::vfs_read:entry is the struct file's.  At return, args[1] is the
 * return value, typed; arg0 stands for DTrace's offset of the return
 * instruction, which neither mechanism knows: a kretprobe gives the
 * caller's return address (as the pid provider's return does), fexit
 * the function's own address.
 */
#include "fbt.h"

#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kern/ktypes.h"
#include "kern/kcaps.h"
#include "obj/ksym.h"
#include "sdt.h"
#include "tracefs.h"

/*
 * A function the kernel has but ftrace does not list, or lists and the
 * kprobe blacklist names (kprobe_blacklist), is one it will not let be
 * traced: marked notrace (the tracing machinery's own, early boot and
 * entry code), or NOKPROBE_SYMBOL.  One kallsyms does not
 * list either was never there or was inlined into every caller.
 */
static void absent(const char *func, char *buf, size_t n)
{
	uint64_t start, end;

	if (ksym_range(func, &start, &end))
		snprintf(buf, n, "the kernel will not let %s be traced (it is "
			 "not in tracefs's available_filter_functions, or is in "
			 "the kprobe blacklist: notrace, or part of the tracing "
			 "machinery)", func);
	else
		snprintf(buf, n, "the kernel has no function %s (kallsyms does "
			 "not list it: never there, or inlined into its callers)",
			 func);
}

const char *fbt_unavailable(void)
{
	if (kcaps_has(KCAP_KPROBE))
		return NULL;
	return "fbt needs kprobes, which this kernel does not have (no kprobe "
	       "PMU: CONFIG_KPROBES is off); trace its tracepoints instead "
	       "(dscope -l -P sdt)";
}

void fbt_why_none(const struct probe_desc *pd, char *buf, size_t n)
{
	if (fbt_unavailable())
		snprintf(buf, n, "%s", fbt_unavailable());
	else if (pd->func && *pd->func && !strpbrk(pd->func, "*?["))
		absent(pd->func, buf, n);
}

struct fn {
	const char *mod, *name;
};

static int cmp_fn(const void *a, const void *b)
{
	const struct fn *x = a, *y = b;
	int c = strcmp(x->mod, y->mod);

	return c ? c : strcmp(x->name, y->name);
}

/* A function a user can name: no clone suffix, no padding symbol. */
static bool nameable(const char *name)
{
	return *name && !strchr(name, '.') && strncmp(name, "__pfx_", 6) != 0;
}

/*
 * One line of available_filter_functions ("name" or "name [module]") or
 * of kallsyms ("addr t name [module]", text symbols only) into *f, its
 * strings in the arena; false if it names no function.
 */
static bool parse_line(struct arena *a, char *line, bool ftrace, struct fn *f)
{
	char *name = line, *mod, *end;

	if (!ftrace) {
		char *type = strchr(line, ' ');

		if (!type || (type[1] != 't' && type[1] != 'T') || type[2] != ' ')
			return false;
		name = type + 3;
	}
	line[strcspn(line, "\n")] = '\0';
	mod = strchr(name, '[');
	end = name + strcspn(name, " \t");
	*end = '\0';
	if (!nameable(name))
		return false;
	f->name = arena_strdup(a, name);
	f->mod = "vmlinux";
	if (mod) {
		mod++;
		mod[strcspn(mod, "]")] = '\0';
		f->mod = arena_strdup(a, mod);
	}
	return true;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/*
 * The kprobe blacklist: functions the kernel marks NOKPROBE_SYMBOL (the
 * kprobe, ftrace and BPF-entry machinery, exception and NMI entry),
 * which ftrace may still list: probing them recurses into the probe's
 * own path.  /sys/kernel/debug/kprobes/blacklist holds one a line,
 * "0xSTART-0xEND\tname" (addresses zero without CAP_SYSLOG); sorted
 * names in *names, how many returned; 0 where debugfs is not there.
 */
static int kprobe_blacklist(struct arena *a, const char ***names)
{
	FILE *f = fopen("/sys/kernel/debug/kprobes/blacklist", "re");
	char line[512];
	const char **v = NULL;
	int n = 0, cap = 0;

	while (f && fgets(line, sizeof(line), f)) {
		char *name = strchr(line, '\t');

		if (!name)
			continue;
		name++;
		name[strcspn(name, " \t\n")] = '\0';
		if (n == cap) {
			const char **nv;

			cap = cap ? 2 * cap : 1024;
			nv = arena_alloc(a, (size_t)cap * sizeof(*nv));
			if (n)
				memcpy(nv, v, (size_t)n * sizeof(*nv));
			v = nv;
		}
		v[n++] = arena_strdup(a, name);
	}
	if (f)
		fclose(f);
	if (n)
		qsort(v, (size_t)n, sizeof(*v), cmp_str);
	*names = v;
	return n;
}

static void fbt_populate(struct catalog *cat)
{
	struct arena *a = catalog_arena(cat);
	char path[512], *line = NULL;
	size_t cap = 0;
	struct fn *fns = NULL;
	int n = 0, ncap = 0;
	bool ftrace = true;
	FILE *f;

	snprintf(path, sizeof(path), "%s/available_filter_functions",
		 tracefs_root() ? tracefs_root() : "/sys/kernel/tracing");
	if (!(f = fopen(path, "re"))) {
		ftrace = false;
		f = fopen("/proc/kallsyms", "re");
	}
	if (!f)
		return;
	while (getline(&line, &cap, f) > 0) {
		struct fn fn;

		if (!parse_line(a, line, ftrace, &fn))
			continue;
		if (n == ncap) {
			ncap = ncap ? 2 * ncap : 65536;
			fns = realloc(fns, sizeof(*fns) * (size_t)ncap);
			if (!fns) {
				fprintf(stderr, "dscope: out of memory\n");
				abort();
			}
		}
		fns[n++] = fn;
	}
	free(line);
	fclose(f);
	qsort(fns, (size_t)n, sizeof(*fns), cmp_fn);
	const char **black;
	int nblack = kprobe_blacklist(a, &black);

	for (int i = 0; i < n; i++) {
		if (i > 0 && cmp_fn(&fns[i], &fns[i - 1]) == 0)
			continue;
		if (nblack && bsearch(&fns[i].name, black, (size_t)nblack,
				      sizeof(*black), cmp_str))
			continue;
		for (int ret = 0; ret < 2; ret++)
			catalog_add(cat, &(struct probe){ .kind = PROV_FBT,
				    .prov = "fbt", .mod = fns[i].mod,
				    .func = fns[i].name,
				    .name = ret ? "return" : "entry", .sysnr = -1 });
	}
	free(fns);
}

/* fbt's probes are made when a provider field names fbt, never for an
 * empty one (see the top of this file). */
const char *fbt_provide(struct catalog *cat, const struct probe_desc *pd)
{
	if (pd->prov && *pd->prov && catalog_glob_match(pd->prov, "fbt") &&
	    !fbt_unavailable() && catalog_first_need(cat, PROV_FBT))
		fbt_populate(cat);
	return pd->mod;
}

/* The BTF of a module, split on vmlinux's, parsed once; NULL if none. */
static const struct btf *module_btf(const char *mod)
{
	static struct { const char *mod; struct btf *btf; } cache[64];
	static int ncache;
	char path[256];

	for (int i = 0; i < ncache; i++)
		if (strcmp(cache[i].mod, mod) == 0)
			return cache[i].btf;
	if (ncache == (int)(sizeof(cache) / sizeof(cache[0])) || !ktype_btf())
		return NULL;
	snprintf(path, sizeof(path), "/sys/kernel/btf/%s", mod);
	cache[ncache].mod = strdup(mod);
	cache[ncache].btf = btf__parse_split(path, (struct btf *)ktype_btf());
	if (libbpf_get_error(cache[ncache].btf))
		cache[ncache].btf = NULL;
	return cache[ncache++].btf;
}

int fbt_load_args(struct catalog *cat, struct probe *p)
{
	bool vmlinux = strcmp(p->mod, "vmlinux") == 0;
	const struct btf *btf = vmlinux ? ktype_btf() : module_btf(p->mod);
	bool ret = strcmp(p->name, "return") == 0;
	struct arena *a = catalog_arena(cat);
	const struct btf_type *t;
	struct probe_arg *args;
	char buf[256];
	int id, n;

	/* without BTF the function's arguments are arg0..arg5, untyped */
	if (!btf || (id = btf__find_by_name_kind(btf, p->func, BTF_KIND_FUNC)) < 0 ||
	    !(t = btf__type_by_id(btf, btf__type_by_id(btf, (uint32_t)id)->type)) ||
	    !btf_is_func_proto(t))
		return p->nargs = 0;
	if (ret) {
		args = arena_alloc(a, sizeof(*args) * 2);
		args[0] = (struct probe_arg){ .type = "int", .name = "" };
		if (t->type == 0)
			return p->args = args, p->nargs = 1;	/* void */
		sdt_type_text(btf, t->type, buf, sizeof(buf));
		args[1] = (struct probe_arg){ .type = arena_strdup(a, buf), .name = "" };
		p->args = args;
		return p->nargs = 2;
	}
	n = btf_vlen(t);
	if (n > FBT_ARGS_MAX)
		n = FBT_ARGS_MAX;
	args = arena_alloc(a, sizeof(*args) * (size_t)(n ? n : 1));
	for (int i = 0; i < n; i++) {
		const struct btf_param *pa = &btf_params(t)[i];
		const char *name = btf__name_by_offset(btf, pa->name_off);

		if (pa->type == 0) {	/* ... of a variadic function */
			n = i;
			break;
		}
		sdt_type_text(btf, pa->type, buf, sizeof(buf));
		args[i].type = arena_strdup(a, buf);
		args[i].name = name ? arena_strdup(a, name) : "";
	}
	p->args = args;
	return p->nargs = n;
}

/* Without cookies and the helpers of 5.15-5.17 (5.10) each function
 * has a copy of its fentry or fexit program, and the context holds the
 * arguments and the return value (cg_probe.c: cg_arg_value). */
bool fbt_fentry_usable(void)
{
	return kcaps_has(KCAP_FENTRY);
}

int fbt_btf_id(const struct probe *p)
{
	const struct btf *btf = ktype_btf();

	if (strcmp(p->mod, "vmlinux") != 0 || !btf)
		return -1;
	return btf__find_by_name_kind(btf, p->func, BTF_KIND_FUNC);
}

/* The prototype of p's function in vmlinux's BTF, or NULL. */
static const struct btf_type *fentry_proto(const struct probe *p)
{
	const struct btf *btf = ktype_btf();
	const struct btf_type *t;
	int id = fbt_btf_id(p);

	if (id <= 0 || !(t = btf__type_by_id(btf, btf__type_by_id(btf, (uint32_t)id)->type)) ||
	    !btf_is_func_proto(t))
		return NULL;
	return t;
}

int fbt_fentry_nargs(const struct probe *p)
{
	const struct btf_type *t = fentry_proto(p);

	return t ? btf_vlen(t) : 0;
}

/* A trampoline passes at most FBT_ARGS_MAX arguments, in registers: no
 * struct passed by value (6.1 has no such support). */
bool fbt_fentry_ok(const struct probe *p)
{
	const struct btf *btf = ktype_btf();
	const struct btf_type *t = fentry_proto(p);

	if (!t || btf_vlen(t) > FBT_ARGS_MAX)
		return false;
	for (int i = 0; i < btf_vlen(t); i++) {
		int at = btf__resolve_type(btf, btf_params(t)[i].type);
		const struct btf_type *a = at > 0 ? btf__type_by_id(btf, (uint32_t)at) : NULL;

		if (!a || btf_is_composite(a))
			return false;	/* a struct by value, or variadic */
	}
	return true;
}

/* One site of available_filter_functions_addrs, in the order listed. */
struct site {
	const char *mod, *name;
	uint64_t addr;
	size_t order;
};

static int cmp_site(const void *a, const void *b)
{
	const struct site *x = a, *y = b;
	int c = strcmp(x->name, y->name);

	if (!c)
		c = strcmp(x->mod, y->mod);
	return c ? c : (x->order > y->order) - (x->order < y->order);
}

/* The sites of tracefs's available_filter_functions_addrs ("addr name" or
 * "addr name [module]"), sorted by name, module, then as listed; how
 * many, 0 where the file is not there.  Their strings in *a. */
static size_t ftrace_sites(struct arena *a, struct site **out)
{
	char path[512], *line = NULL;
	size_t cap = 0, n = 0, ncap = 0;
	struct site *v = NULL;
	FILE *f;

	snprintf(path, sizeof(path), "%s/available_filter_functions_addrs",
		 tracefs_root() ? tracefs_root() : "/sys/kernel/tracing");
	if (!(f = fopen(path, "re")))
		return *out = NULL, 0;
	while (getline(&line, &cap, f) > 0) {
		char *end, *name;
		struct fn fn;
		uint64_t addr = strtoull(line, &end, 16);

		if (end == line || *end != ' ')
			continue;
		name = end + 1;
		if (!parse_line(a, name, true, &fn))
			continue;
		if (n == ncap) {
			struct site *nv;

			ncap = ncap ? 2 * ncap : 65536;
			if (!(nv = realloc(v, sizeof(*v) * ncap)))
				break;
			v = nv;
		}
		v[n] = (struct site){ fn.mod, fn.name, addr, n };
		n++;
	}
	free(line);
	fclose(f);
	if (n)
		qsort(v, n, sizeof(*v), cmp_site);
	*out = v;
	return n;
}

/*
 * The address a kprobe_multi link takes for each function: the start of
 * the one ftrace patches (available_filter_functions_addrs, kernels 6.5
 * on), the first it lists under that name and module, as a kprobe by
 * name enters the first.  The file gives the patched instruction, after
 * an endbr64 where the kernel has IBT, and a link given that address
 * attaches but finds no cookie for it when the probe fires (the kernel
 * looks them up by the function's start): the symbol that holds it in
 * kallsyms gives the start (by address: a function may have aliases).  kallsyms' can be another function's -- two static
 * functions of one name, one of them notrace, or a variable's -- and one
 * address ftrace does not know refuses the whole link (EINVAL).  Where
 * the file is not there, kallsyms' text symbol (ksym_func_addrs), and
 * rt/uprobe.c splits a refused link to find the one refused.
 */
#define SITE_AFTER_START 16	/* the patched call at most an endbr64 in */

void fbt_func_addrs(size_t n, const char *const *mods,
		    const char *const *names, uint64_t *addrs)
{
	struct arena a = { 0 };
	struct site *sites;
	size_t nsites = ftrace_sites(&a, &sites);
	const char *mod, *sym;
	uint64_t start;

	if (!nsites) {
		ksym_func_addrs(n, mods, names, addrs);
		free(sites);
		arena_free(&a);
		return;
	}
	for (size_t i = 0; i < n; i++) {
		struct site key = { mods[i], names[i], 0, 0 };
		size_t lo = 0, hi = nsites;	/* the first not below key */

		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;

			if (cmp_site(&sites[mid], &key) < 0)
				lo = mid + 1;
			else
				hi = mid;
		}
		addrs[i] = 0;
		if (lo < nsites && strcmp(sites[lo].name, names[i]) == 0 &&
		    strcmp(sites[lo].mod, mods[i]) == 0 &&
		    ksym_lookup(NULL, sites[lo].addr, &mod, &sym, &start) &&
		    sites[lo].addr - start < SITE_AFTER_START)
			addrs[i] = start;
	}
	free(sites);
	arena_free(&a);
}
