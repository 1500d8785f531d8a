/*
 * catalog.c -- the probe catalog: storage, glob matching, the dtrace and
 * profile providers, and dtrace -l.
 *
 * Probes live in the catalog's arena and are indexed by ID (probes[id - 1]);
 * IDs are handed out in creation order, so the index is dense and a probe
 * made on demand appends without moving anything.  Populating runs the
 * providers in the order DTrace lists them (dtrace first, then by name), so
 * IDs read as dtrace -l reads.
 *
 * Matching is a walk over every probe, four globs each.  There are some
 * seven hundred probes and a script names a handful of descriptions; an
 * index would cost more to build than the walks it saves.
 *
 * The profile provider has standing probes (the rates dtrace-utils lists:
 * profile-97 ... profile-4999, tick-1 ... tick-5000) and makes any other
 * profile-N or tick-N when a description names it exactly.  A period is
 * checked against DTrace's floor of 200us: a faster timer on every CPU
 * would be a way to take the machine down, which tracing must never be.
 *
 * Stability attributes, for -lv, are DTrace's: each provider rates its
 * provider, module, function and name fields and its arguments, and a
 * probe's description rating is the minimum over the fields it names.
 */
#include "catalog.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "derived.h"
#include "fbt.h"
#include "net.h"
#include "lockstat.h"
#include "pid.h"
#include "plockstat.h"
#include "sdt.h"
#include "syscalls.h"
#include "usdt.h"

#define NSEC_PER_SEC 1000000000ULL
#define PROFILE_MIN_NS 200000ULL	/* DTrace's floor: 200us */

struct catalog {
	struct arena arena;	/* probes, their strings, their argument lists */
	struct probe **probes;	/* probes[id - 1] */
	uint32_t nprobes, cap;
	char hint[320];		/* catalog__hint(); "" when none */
	bool needed[PROV_NKINDS]; /* catalog_first_need() */
	long exec_pid;		/* catalog__set_target_exec() */
	const char *exec_path;
	struct pid_file {	/* (kind, pid, file): what pid and usdt did */
		enum prov_kind kind;
		long pid;
		const char *path;
	} *pid_files;
	int npid_files, pid_files_cap;
};

/* -- Stability, as dtrace -lv prints it ---------------------------------- */

enum stability {	/* ORDER STABILITY: stability_names[] */
	STAB_INTERNAL, STAB_PRIVATE, STAB_OBSOLETE, STAB_EXTERNAL,
	STAB_UNSTABLE, STAB_EVOLVING, STAB_STABLE, STAB_STANDARD,
};

static const char *const stability_names[] = {
	"Internal", "Private", "Obsolete", "External",
	"Unstable", "Evolving", "Stable", "Standard",
};

enum dep_class {	/* ORDER CLASS: class_names[] */
	CLASS_UNKNOWN, CLASS_CPU, CLASS_PLATFORM, CLASS_GROUP, CLASS_ISA, CLASS_COMMON,
};

static const char *const class_names[] = {
	"Unknown", "CPU", "Platform", "Group", "ISA", "Common",
};

struct attr {
	unsigned char names, data, class;	/* enum stability x2, enum dep_class */
};

#define ATTR(n, d, c) { STAB_##n, STAB_##d, CLASS_##c }

/*
 * The provider table: a row for each kind of probe, with its ratings and
 * what the catalog asks of it.  Adding a provider is its own file (and
 * header), a prov_kind and a row here.  Each operation may be NULL.
 */
struct provider {
	const char *name;
	struct attr prov, mod, func, name_attr, args;
	int (*load_args)(struct catalog *, struct probe *);	/* NULL: untyped */
	/* its fixed probes, added when the catalog is made, in row order */
	void (*populate)(struct catalog *cat);
	/* before each match, in row order: the probes a description may name
	 * that are made on demand (a process's, a costly walk's); returns the
	 * module field to match by (a process's "libc" is its libc.so.6) */
	const char *(*provide)(struct catalog *cat, const struct probe_desc *pd);
	/* NULL if this kernel offers p; else the sentence saying what it lacks */
	const char *(*missing)(const struct probe *p);
	/* a description naming this provider matched nothing: why, into buf */
	void (*why_none)(const struct probe_desc *pd, char *buf, size_t n);
	enum prov_mech mech;	/* how its probes fire (catalog.h) */
};

static void dtrace_populate(struct catalog *cat);
static void profile_populate(struct catalog *cat);
static const char *profile_provide(struct catalog *cat, const struct probe_desc *pd);
static const char *sdt_provide(struct catalog *cat, const struct probe_desc *pd);

static const struct provider providers[PROV_NKINDS] = {	/* ORDER PROV_KIND */
	[PROV_DTRACE] = { "dtrace",
		ATTR(STABLE, STABLE, COMMON), ATTR(PRIVATE, PRIVATE, UNKNOWN),
		ATTR(PRIVATE, PRIVATE, UNKNOWN), ATTR(STABLE, STABLE, COMMON),
		ATTR(STABLE, STABLE, COMMON), NULL, dtrace_populate,
		.mech = MECH_DTRACE },
	[PROV_PROFILE] = { "profile",
		ATTR(EVOLVING, EVOLVING, COMMON), ATTR(UNSTABLE, UNSTABLE, UNKNOWN),
		ATTR(PRIVATE, PRIVATE, UNKNOWN), ATTR(EVOLVING, EVOLVING, COMMON),
		ATTR(EVOLVING, EVOLVING, COMMON), NULL, profile_populate, profile_provide,
		.mech = MECH_PROFILE },
	[PROV_TICK] = { "profile",
		ATTR(EVOLVING, EVOLVING, COMMON), ATTR(UNSTABLE, UNSTABLE, UNKNOWN),
		ATTR(PRIVATE, PRIVATE, UNKNOWN), ATTR(EVOLVING, EVOLVING, COMMON),
		ATTR(EVOLVING, EVOLVING, COMMON), NULL,
		.mech = MECH_TICK },
	[PROV_SYSCALL] = { "syscall",
		ATTR(EVOLVING, EVOLVING, COMMON), ATTR(PRIVATE, PRIVATE, UNKNOWN),
		ATTR(PRIVATE, PRIVATE, ISA), ATTR(EVOLVING, EVOLVING, COMMON),
		ATTR(PRIVATE, PRIVATE, ISA), syscalls_load_args, syscalls_populate,
		.mech = MECH_SYSCALL },
	/* kernel tracepoints: illumos sdt's ratings */
	[PROV_SDT] = { "sdt",
		ATTR(EVOLVING, EVOLVING, ISA), ATTR(PRIVATE, PRIVATE, UNKNOWN),
		ATTR(PRIVATE, PRIVATE, UNKNOWN), ATTR(EVOLVING, EVOLVING, ISA),
		ATTR(PRIVATE, PRIVATE, ISA), sdt_load_args, NULL, sdt_provide,
		NULL, sdt_why_none, .mech = MECH_TRACEPOINT },
	[PROV_PROC] = { "proc",
		ATTR(EVOLVING, EVOLVING, ISA), ATTR(PRIVATE, PRIVATE, UNKNOWN),
		ATTR(PRIVATE, PRIVATE, UNKNOWN), ATTR(EVOLVING, EVOLVING, ISA),
		ATTR(EVOLVING, EVOLVING, ISA), stable_load_args, stable_populate, NULL,
		stable_missing,
		.mech = MECH_TRACEPOINT },
	[PROV_SCHED] = { "sched",
		ATTR(EVOLVING, EVOLVING, ISA), ATTR(PRIVATE, PRIVATE, UNKNOWN),
		ATTR(PRIVATE, PRIVATE, UNKNOWN), ATTR(EVOLVING, EVOLVING, ISA),
		ATTR(EVOLVING, EVOLVING, ISA), stable_load_args, NULL, NULL, stable_missing,
		.mech = MECH_TRACEPOINT },
	[PROV_IO] = { "io",
		ATTR(EVOLVING, EVOLVING, ISA), ATTR(PRIVATE, PRIVATE, UNKNOWN),
		ATTR(PRIVATE, PRIVATE, UNKNOWN), ATTR(EVOLVING, EVOLVING, ISA),
		ATTR(EVOLVING, EVOLVING, ISA), stable_load_args, NULL, NULL, stable_missing,
		.mech = MECH_TRACEPOINT },
	/* tcp, udp, ip: illumos' ratings of its network providers */
	[PROV_NET] = { "net",
		ATTR(EVOLVING, EVOLVING, ISA), ATTR(PRIVATE, PRIVATE, UNKNOWN),
		ATTR(PRIVATE, PRIVATE, UNKNOWN), ATTR(EVOLVING, EVOLVING, ISA),
		ATTR(EVOLVING, EVOLVING, ISA), net_load_args, net_populate, NULL, stable_missing,
		.mech = MECH_TRACEPOINT },
	[PROV_PID] = { "pid",
		ATTR(EVOLVING, EVOLVING, ISA), ATTR(PRIVATE, PRIVATE, UNKNOWN),
		ATTR(PRIVATE, PRIVATE, UNKNOWN), ATTR(EVOLVING, EVOLVING, ISA),
		ATTR(PRIVATE, PRIVATE, UNKNOWN), NULL, NULL, pid_provide,
		.mech = MECH_UPROBE },
	/* illumos rates a USDT provider by its own -G file; these are the
	 * ratings it gives one that says nothing */
	[PROV_USDT] = { "usdt",
		ATTR(EVOLVING, EVOLVING, ISA), ATTR(PRIVATE, PRIVATE, UNKNOWN),
		ATTR(PRIVATE, PRIVATE, UNKNOWN), ATTR(EVOLVING, EVOLVING, ISA),
		ATTR(EVOLVING, EVOLVING, ISA), usdt_load_args, NULL, usdt_provide,
		.mech = MECH_USDT },
	/* illumos fbt's ratings */
	[PROV_FBT] = { "fbt",
		ATTR(EVOLVING, EVOLVING, ISA), ATTR(PRIVATE, PRIVATE, UNKNOWN),
		ATTR(PRIVATE, PRIVATE, ISA), ATTR(EVOLVING, EVOLVING, ISA),
		ATTR(PRIVATE, PRIVATE, ISA), fbt_load_args, NULL, fbt_provide, NULL,
		fbt_why_none,
		.mech = MECH_KFUNC },
	/* illumos lockstat's and plockstat's ratings */
	[PROV_LOCKSTAT] = { "lockstat",
		ATTR(EVOLVING, EVOLVING, COMMON), ATTR(PRIVATE, PRIVATE, UNKNOWN),
		ATTR(PRIVATE, PRIVATE, UNKNOWN), ATTR(EVOLVING, EVOLVING, COMMON),
		ATTR(EVOLVING, EVOLVING, COMMON), lockstat_load_args, lockstat_populate, NULL,
		lockstat_missing, lockstat_why_none,
		.mech = MECH_LOWERED },
	[PROV_PLOCKSTAT] = { "plockstat",
		ATTR(EVOLVING, EVOLVING, ISA), ATTR(PRIVATE, PRIVATE, UNKNOWN),
		ATTR(PRIVATE, PRIVATE, UNKNOWN), ATTR(EVOLVING, EVOLVING, ISA),
		ATTR(EVOLVING, EVOLVING, ISA), plockstat_load_args, NULL, plockstat_provide,
		.mech = MECH_LOWERED },
	/* illumos' kstat providers' ratings; derived.c makes the new sched
	 * and proc probes with these (one provide for all) */
	[PROV_VMINFO] = { "vminfo",
		ATTR(EVOLVING, EVOLVING, ISA), ATTR(PRIVATE, PRIVATE, UNKNOWN),
		ATTR(PRIVATE, PRIVATE, UNKNOWN), ATTR(EVOLVING, EVOLVING, ISA),
		ATTR(PRIVATE, PRIVATE, ISA), derived_load_args, NULL, derived_provide,
		derived_missing, derived_why_none,
		.mech = MECH_LOWERED },
	[PROV_SYSINFO] = { "sysinfo",
		ATTR(EVOLVING, EVOLVING, ISA), ATTR(PRIVATE, PRIVATE, UNKNOWN),
		ATTR(PRIVATE, PRIVATE, UNKNOWN), ATTR(EVOLVING, EVOLVING, ISA),
		ATTR(PRIVATE, PRIVATE, ISA), derived_load_args, NULL, NULL,
		derived_missing,
		.mech = MECH_LOWERED },
};

static struct attr attr_min(struct attr a, struct attr b)
{
	return (struct attr){
		a.names < b.names ? a.names : b.names,
		a.data < b.data ? a.data : b.data,
		a.class < b.class ? a.class : b.class,
	};
}

/* A listed probe names its fields exactly; an empty field is DTrace's
 * "any", which leaves that field's rating out. */
static struct attr describe_attr(const struct probe *p)
{
	const struct provider *pv = &providers[p->kind];
	struct attr a = pv->prov;

	if (*p->mod)
		a = attr_min(a, pv->mod);
	if (*p->func)
		a = attr_min(a, pv->func);
	if (*p->name)
		a = attr_min(a, pv->name_attr);
	return a;
}

/* -- Storage --------------------------------------------------------------- */

struct arena *catalog_arena(struct catalog *cat)
{
	return &cat->arena;
}

bool catalog_first_need(struct catalog *cat, enum prov_kind kind)
{
	bool first = !cat->needed[kind];

	cat->needed[kind] = true;
	return first;
}

enum prov_mech catalog_mech(enum prov_kind kind)
{
	return providers[kind].mech;
}

const char *catalog_prov_name(enum prov_kind kind)
{
	return providers[kind].name;
}

struct probe *catalog_add(struct catalog *cat, const struct probe *tmpl)
{
	struct probe *p = arena_alloc(&cat->arena, sizeof(*p));

	if (cat->nprobes == cat->cap) {
		uint32_t cap = cat->cap ? 2 * cat->cap : 1024;
		struct probe **v = realloc(cat->probes, cap * sizeof(*v));

		if (!v) {
			fprintf(stderr, "dscope: out of memory\n");
			abort();
		}
		cat->probes = v;
		cat->cap = cap;
	}
	*p = *tmpl;
	p->id = cat->nprobes + 1;
	p->nargs = -1;
	p->args = NULL;
	p->args_loaded = false;
	cat->probes[cat->nprobes++] = p;
	return p;
}

void catalog__set_target_exec(struct catalog *cat, long pid, const char *path)
{
	cat->exec_pid = pid;
	cat->exec_path = arena_strdup(&cat->arena, path);
}

const char *catalog_target_exec(const struct catalog *cat, long pid)
{
	return pid == cat->exec_pid ? cat->exec_path : NULL;
}

bool catalog_pid_module_new(struct catalog *cat, enum prov_kind kind, long pid,
			    const char *path)
{
	for (int i = 0; i < cat->npid_files; i++)
		if (cat->pid_files[i].kind == kind && cat->pid_files[i].pid == pid &&
		    strcmp(cat->pid_files[i].path, path) == 0)
			return false;
	*ARENA_PUSH(&cat->arena, cat->pid_files, cat->npid_files,
		    cat->pid_files_cap) = (struct pid_file){ kind, pid, path };
	return true;
}

const struct probe *catalog__by_id(const struct catalog *cat, uint32_t id)
{
	return id >= 1 && id <= cat->nprobes ? cat->probes[id - 1] : NULL;
}

uint32_t catalog__count(const struct catalog *cat)
{
	return cat->nprobes;
}

const char *catalog__hint(const struct catalog *cat)
{
	return cat->hint[0] ? cat->hint : NULL;
}

void catalog_set_hint(struct catalog *cat, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(cat->hint, sizeof(cat->hint), fmt, ap);
	va_end(ap);
}

int catalog__args(struct catalog *cat, const struct probe *cp)
{
	struct probe *p = cat->probes[cp->id - 1];	/* ours, writable */
	int (*load)(struct catalog *, struct probe *) = providers[p->kind].load_args;

	if (!p->args_loaded) {
		p->nargs = 0;
		if (load)
			load(cat, p);
		p->args_loaded = true;
	}
	return p->nargs;
}

/* -- Globs ----------------------------------------------------------------- */

/* One character of a pattern, backslash quoting the next; advances *pp. */
static unsigned char pattern_char(const char **pp)
{
	const char *p = *pp;

	if (p[0] == '\\' && p[1])
		p++;
	*pp = p + 1;
	return (unsigned char)*p;
}

/* A set "[...]" starting after the '[': whether c is in it, and where the
 * pattern goes on (after the ']'); NULL when the set never closes. */
static const char *match_set(const char *p, unsigned char c, bool *in)
{
	bool negate = *p == '!', found = false;

	if (negate)
		p++;
	for (bool first = true; *p && (*p != ']' || first); first = false) {
		unsigned char lo = pattern_char(&p), hi = lo;

		if (p[0] == '-' && p[1] && p[1] != ']') {
			p++;
			hi = pattern_char(&p);
		}
		found |= lo <= c && c <= hi;
	}
	if (*p != ']')
		return NULL;
	*in = found != negate;
	return p + 1;
}

/* Iterative, remembering only the last '*': a later star can always stand
 * in for an earlier one's longer match, so one backtrack point suffices. */
bool catalog_glob_match(const char *pat, const char *s)
{
	const char *star_pat = NULL, *star_s = NULL;

	while (*s) {
		const char *next = pat;
		bool in = false;

		if (*pat == '*') {
			star_pat = ++pat;
			star_s = s;
			continue;
		}
		if (*pat == '?') {
			in = true;
			next = pat + 1;
		} else if (*pat == '[') {
			if (!(next = match_set(pat + 1, (unsigned char)*s, &in)))
				return false;
		} else if (*pat) {
			in = pattern_char(&next) == (unsigned char)*s;
		}
		if (in) {
			pat = next;
			s++;
		} else if (star_pat) {
			pat = star_pat;
			s = ++star_s;
		} else {
			return false;
		}
	}
	while (*pat == '*')
		pat++;
	return *pat == '\0';
}

static bool is_glob(const char *s)
{
	return strpbrk(s, "*?[\\") != NULL;
}

static bool field_matches(const char *pat, const char *s)
{
	return !pat || !*pat || catalog_glob_match(pat, s);
}

static bool probe_matches(const struct probe *p, const struct probe_desc *pd)
{
	bool aout = p->uexe && pd->mod && strcmp(pd->mod, "a.out") == 0;

	if (p->hidden)
		return pd->prov && strcmp(pd->prov, p->prov) == 0 && pd->mod &&
		       strcmp(pd->mod, p->mod) == 0 && pd->func &&
		       strcmp(pd->func, p->func) == 0 && pd->name &&
		       strcmp(pd->name, p->name) == 0;

	return field_matches(pd->prov, p->prov) &&
	       (aout || field_matches(pd->mod, p->mod)) &&
	       field_matches(pd->func, p->func) &&
	       (field_matches(pd->name, p->name) ||
		(p->name_raw && field_matches(pd->name, p->name_raw)));
}

/* -- The dtrace provider --------------------------------------------------- */

static void dtrace_populate(struct catalog *cat)
{
	static const char *const names[] = { "BEGIN", "END", "ERROR" };

	for (int i = 0; i < 3; i++)
		catalog_add(cat, &(struct probe){ .kind = PROV_DTRACE, .prov = "dtrace",
			    .mod = "", .func = "", .name = names[i], .sysnr = -1 });
}

/* -- The profile provider -------------------------------------------------- */

static const struct {
	const char *unit;
	uint64_t ns;		/* 0: a frequency */
} time_units[] = {
	{ "", 0 }, { "hz", 0 },
	{ "ns", 1 }, { "nsec", 1 },
	{ "us", 1000 }, { "usec", 1000 },
	{ "ms", 1000000 }, { "msec", 1000000 },
	{ "s", NSEC_PER_SEC }, { "sec", NSEC_PER_SEC },
	{ "m", 60 * NSEC_PER_SEC }, { "min", 60 * NSEC_PER_SEC },
	{ "h", 3600 * NSEC_PER_SEC }, { "hour", 3600 * NSEC_PER_SEC },
	{ "d", 86400 * NSEC_PER_SEC }, { "day", 86400 * NSEC_PER_SEC },
};

static const struct {
	const char *prefix;
	enum prov_kind kind;
} profile_prefixes[] = {
	{ "profile-", PROV_PROFILE },
	{ "tick-", PROV_TICK },
};

/* "profile-" or "tick-" at the start of name: the kind, and the rest. */
static const char *profile_prefix(const char *name, enum prov_kind *kind)
{
	for (size_t i = 0; i < sizeof(profile_prefixes) / sizeof(profile_prefixes[0]); i++) {
		size_t n = strlen(profile_prefixes[i].prefix);

		if (strncmp(name, profile_prefixes[i].prefix, n) == 0) {
			*kind = profile_prefixes[i].kind;
			return name + n;
		}
	}
	return NULL;
}

/* The period of a "N[unit]" string, or 0 with *why set. */
static uint64_t parse_period(const char *s, const char **why)
{
	uint64_t val = 0;

	if (*s < '0' || *s > '9') {
		*why = "expected a number, then one of ns us ms s m h d hz (or none: hz)";
		return 0;
	}
	for (; *s >= '0' && *s <= '9'; s++) {
		if (val > (UINT64_MAX - 9) / 10) {
			*why = "the number is too large";
			return 0;
		}
		val = val * 10 + (uint64_t)(*s - '0');
	}
	for (size_t i = 0; i < sizeof(time_units) / sizeof(time_units[0]); i++) {
		uint64_t ns = time_units[i].ns;

		if (strcasecmp(s, time_units[i].unit) != 0)
			continue;
		if (val == 0) {
			*why = "a period of zero";
			return 0;
		}
		if (ns && val > UINT64_MAX / ns) {
			*why = "the period is too long";
			return 0;
		}
		return ns ? val * ns : NSEC_PER_SEC / val;
	}
	*why = "unknown unit: use ns nsec us usec ms msec s sec m min h hour d day hz";
	return 0;
}

int catalog_parse_profile(const char *name, enum prov_kind *kind,
			  uint64_t *period_ns, const char **why)
{
	const char *rest = profile_prefix(name, kind);
	uint64_t ns;

	if (!rest) {
		*why = "not a profile-N or tick-N probe name";
		return -1;
	}
	if (!(ns = parse_period(rest, why)))
		return -1;
	if (ns < PROFILE_MIN_NS) {
		*why = "the period is under DTrace's minimum of 200us (5000hz)";
		return -1;
	}
	*period_ns = ns;
	return 0;
}

static void profile_add(struct catalog *cat, const char *name, enum prov_kind kind,
			uint64_t period_ns)
{
	catalog_add(cat, &(struct probe){ .kind = kind, .prov = "profile", .mod = "",
		    .func = "", .name = name, .sysnr = -1, .period_ns = period_ns });
}

static void profile_populate(struct catalog *cat)
{
	static const int profile_hz[] = { 97, 199, 499, 997, 1999, 4001, 4999 };
	static const int tick_hz[] = { 1, 10, 100, 500, 1000, 5000 };

	for (size_t i = 0; i < sizeof(profile_hz) / sizeof(profile_hz[0]); i++)
		profile_add(cat, arena_printf(&cat->arena, "profile-%d", profile_hz[i]),
			    PROV_PROFILE, NSEC_PER_SEC / profile_hz[i]);
	for (size_t i = 0; i < sizeof(tick_hz) / sizeof(tick_hz[0]); i++)
		profile_add(cat, arena_printf(&cat->arena, "tick-%d", tick_hz[i]),
			    PROV_TICK, NSEC_PER_SEC / tick_hz[i]);
}

static bool profile_exists(const struct catalog *cat, const char *name)
{
	for (uint32_t i = 0; i < cat->nprobes; i++) {
		const struct probe *p = cat->probes[i];

		if ((p->kind == PROV_PROFILE || p->kind == PROV_TICK) &&
		    strcmp(p->name, name) == 0)
			return true;
	}
	return false;
}

/* Makes the probe a description names, if it is a new profile-N or tick-N;
 * when the name looks like one and is not, leaves the reason in the hint. */
static const char *profile_provide(struct catalog *cat, const struct probe_desc *pd)
{
	enum prov_kind kind;
	uint64_t ns;
	const char *why;

	if (!pd->name || is_glob(pd->name) || !profile_prefix(pd->name, &kind) ||
	    !field_matches(pd->prov, "profile") || !field_matches(pd->mod, "") ||
	    !field_matches(pd->func, "") || profile_exists(cat, pd->name))
		return pd->mod;
	if (catalog_parse_profile(pd->name, &kind, &ns, &why) < 0) {
		snprintf(cat->hint, sizeof(cat->hint), "%s: %s", pd->name, why);
		return pd->mod;
	}
	profile_add(cat, arena_strdup(&cat->arena, pd->name), kind, ns);
	return pd->mod;
}

/* -- The catalog ----------------------------------------------------------- */

struct catalog *catalog__new(void)
{
	struct catalog *cat = calloc(1, sizeof(*cat));

	if (!cat) {
		fprintf(stderr, "dscope: out of memory\n");
		abort();
	}
	for (int k = 0; k < PROV_NKINDS; k++)
		if (providers[k].populate)
			providers[k].populate(cat);
	return cat;
}

void catalog__free(struct catalog *cat)
{
	if (!cat)
		return;
	arena_free(&cat->arena);
	free(cat->probes);
	free(cat);
}

/* A tracepoint's group and event are C identifiers: a field that is
 * neither a glob nor one ("tick-1s") cannot name an sdt probe. */
static bool may_be_identifier(const char *s)
{
	if (!s || is_glob(s))
		return true;
	for (; *s; s++)
		if (!(*s == '_' || (*s >= '0' && *s <= '9') ||
		      ((*s | 0x20) >= 'a' && (*s | 0x20) <= 'z')))
			return false;
	return true;
}

/*
 * The sdt probes cost a walk of tracefs and of BTF, so they are added when
 * a description may name one: its provider field names sdt, or is empty
 * and its name field empty, a glob, or matching nothing else ("BEGIN" and
 * "tick-1s" do not pay; ":::sched_switch" and -l do).
 */
static const char *sdt_provide(struct catalog *cat, const struct probe_desc *pd)
{
	bool any_prov = !pd->prov || !*pd->prov;

	if (cat->needed[PROV_SDT] || !field_matches(pd->prov, "sdt") ||
	    !may_be_identifier(pd->mod) || !field_matches(pd->func, "") ||
	    !may_be_identifier(pd->name))
		return pd->mod;
	if (any_prov && pd->name && *pd->name && !is_glob(pd->name) &&
	    !is_glob(pd->mod ? pd->mod : "") && !is_glob(pd->func ? pd->func : "")) {
		for (uint32_t i = 0; i < cat->nprobes; i++)
			if (probe_matches(cat->probes[i], pd))
				return pd->mod;
	}
	cat->needed[PROV_SDT] = true;
	sdt_populate(cat);
	return pd->mod;
}

/*
 * One probe per function address, as DTrace's pid provider makes them
 * (dt_pid.c takes, of the symbols at one address, the first the
 * description matches, in libproc's by-address order): a function known
 * by several names (sigemptyset and __GI_sigemptyset) fires once per
 * call.  Of the aliases a description matches, the one named is the one
 * a stack names it by: a global name over a local one, then fewer leading
 * underscores, then the first by name.
 */
static bool alias_preferred(const struct probe *a, const struct probe *b)
{
	size_t ua = strspn(a->func, "_"), ub = strspn(b->func, "_");

	if (a->urank != b->urank)
		return a->urank > b->urank;
	if (ua != ub)
		return ua < ub;
	return strcmp(a->func, b->func) < 0;
}

static bool same_function_probe(const struct probe *a, const struct probe *b)
{
	return b->kind == PROV_PID && b->upid == a->upid &&
	       b->uoffset == a->uoffset && strcmp(b->upath, a->upath) == 0 &&
	       strcmp(b->name, a->name) == 0;
}

/* pid_provide adds a file's entry and return probes two by two in
 * address order, so a function's aliases are neighbours, a stride of 2
 * apart. */
static bool alias_shadowed(const struct catalog *cat, uint32_t i,
			   const struct probe_desc *pd)
{
	const struct probe *p = cat->probes[i];

	for (int dir = -1; dir <= 1; dir += 2)
		for (int64_t j = (int64_t)i + 2 * dir;
		     j >= 0 && j < (int64_t)cat->nprobes; j += 2 * dir) {
			const struct probe *q = cat->probes[j];

			if (!same_function_probe(p, q))
				break;
			if (probe_matches(q, pd) && alias_preferred(q, p))
				return true;
		}
	return false;
}

int catalog__match(struct catalog *cat, const struct probe_desc *pd,
		   int (*fn)(const struct probe *p, void *arg), void *arg)
{
	const char *why;
	int n = 0;
	struct probe_desc q = *pd;

	cat->hint[0] = '\0';
	/* a process's module may be named short ("libc"): match its probes
	 * by the name they carry */
	for (int k = 0; k < PROV_NKINDS; k++)
		if (providers[k].provide)
			q.mod = providers[k].provide(cat, &q);
	pd = &q;
	for (uint32_t i = 0; i < cat->nprobes; i++) {
		const struct probe *p = cat->probes[i];
		int rc;

		if (!probe_matches(p, pd))
			continue;
		if (p->kind == PROV_PID && alias_shadowed(cat, i, pd))
			continue;
		if (providers[p->kind].missing &&
		    (why = providers[p->kind].missing(p))) {
			if (!cat->hint[0])
				snprintf(cat->hint, sizeof(cat->hint), "%s", why);
			continue;
		}
		n++;
		if (fn && (rc = fn(p, arg)) < 0)
			return rc;
	}
	if (n)
		cat->hint[0] = '\0';
	else if (!cat->hint[0] && pd->prov)
		for (int k = 0; k < PROV_NKINDS; k++)
			if (providers[k].why_none &&
			    strcmp(pd->prov, providers[k].name) == 0)
				providers[k].why_none(pd, cat->hint, sizeof(cat->hint));
	return n;
}

/* -- dtrace -l ------------------------------------------------------------- */

void catalog__list_header(FILE *out)
{
	fprintf(out, "%5s %10s %17s %33s %s\n", "ID", "PROVIDER", "MODULE",
		"FUNCTION", "NAME");
}

static void print_attr(FILE *out, const char *title, struct attr a)
{
	fprintf(out, "\n\t%s\n", title);
	fprintf(out, "\t\tIdentifier Names: %s\n", stability_names[a.names]);
	fprintf(out, "\t\tData Semantics:   %s\n", stability_names[a.data]);
	fprintf(out, "\t\tDependency Class: %s\n", class_names[a.class]);
}

static void print_info(struct catalog *cat, FILE *out, const struct probe *p)
{
	int nargs = catalog__args(cat, p);

	print_attr(out, "Probe Description Attributes", describe_attr(p));
	print_attr(out, "Argument Attributes", providers[p->kind].args);
	fprintf(out, "\n\tArgument Types\n");
	for (int i = 0; i < nargs; i++)
		fprintf(out, "\t\targs[%d]: %s\n", i, p->args[i].type);
	if (p->kind == PROV_USDT && p->nusites && p->usites[0].argerr)
		fprintf(out, "\t\targs[%d]: cannot be fetched (%s): %s\n", nargs,
			p->usites[0].argtext, p->usites[0].argerr);
	if (nargs == 0)
		fprintf(out, "\t\tNone\n");
	else if (nargs < 0)
		fprintf(out, "\t\tUnknown (tracefs is not available)\n");
	fprintf(out, "\n");
}

void catalog__list_probe(struct catalog *cat, FILE *out, const struct probe *p,
			 bool verbose)
{
	fprintf(out, "%5u %10s %17s %33s %s\n", p->id, p->prov, p->mod, p->func,
		p->name);
	if (verbose)
		print_info(cat, out, p);
}

struct list_ctx {
	struct catalog *cat;
	FILE *out;
	bool verbose;
};

static int list_one(const struct probe *p, void *arg)
{
	struct list_ctx *lc = arg;

	catalog__list_probe(lc->cat, lc->out, p, lc->verbose);
	return 0;
}

int catalog__list(struct catalog *cat, FILE *out, const struct probe_desc *pd,
		  bool verbose)
{
	static const struct probe_desc all = { .prov = "", .mod = "", .func = "", .name = "" };
	struct list_ctx lc = { cat, out, verbose };

	return catalog__match(cat, pd ? pd : &all, list_one, &lc);
}
