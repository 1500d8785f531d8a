/*
 * options.c -- parse and hold DTrace options.  See options.h.
 *
 * Every option of DTrace's option table either does here what it does in
 * DTrace, or is refused with a sentence saying why (O_REFUSE), or has no
 * visible effect on this system and is accepted (O_ACCEPT), with a
 * comment saying why it is harmless.  Accepted or not, a value DTrace
 * would refuse is refused.
 */
#include "spec/options.h"
#include "spec/spec.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

/* speculation() scans the IDs in a bounded BPF loop: keep it short */
#define SPEC_NSPEC_MAX 1024

void options_init(struct options *o)
{
	memset(o, 0, sizeof(*o));
	o->strsize = 256;
	o->bufsize = OPTIONS_BUFSIZE_DEFAULT;
	o->aggsize = 4 << 20;
	o->dynvarsize = 1 << 20;
	o->scratchsize = SCRATCHSIZE_DEFAULT;
	o->nspec = 1;
	o->specsize = 32 << 10;		/* DTrace's default */
	o->cleanrate_ns = 1000000000ull / 101;	/* DTrace's 101 Hz */
	/* DTrace's 1 Hz for each: see session.c for what each one paces */
	o->switchrate_ns = 1000000000ull;
	o->aggrate_ns = 1000000000ull;
	o->statusrate_ns = 1000000000ull;
	o->stackindent = 14;
	o->printsize = 8192;
	o->cpu = -1;			/* every CPU */
	o->stackframes = 20;		/* DTrace's _dtrace_stackframes */
	o->ustackframes = 100;		/* and _dtrace_ustackframes */
	o->ustackrows = 1 << 19;	/* 8 MB of rows (rt/unwind.c) */
	o->maxframes = 127;		/* the most a stack here can hold */
	o->metrics_maxsize = 4 << 20;
	o->budget_ppm = BUDGET_DEFAULT_PPM;
}

uint32_t options_budget(const struct options *o)
{
	return o->destructive && !o->budget_set ? 0 : o->budget_ppm;
}

/*
 * A share of the machine, for option budget: a percentage, a decimal
 * fraction allowed, the '%' optional ("25", "2.5%"), at most 100; 0 or
 * "off" turns the budget off.  Kept in millionths.
 */
static int parse_percent(const char *v, uint32_t *ppm)
{
	char *end;
	double d;

	if (v && strcmp(v, "off") == 0) {
		*ppm = 0;
		return 0;
	}
	if (!v || !(isdigit((unsigned char)*v) || *v == '.'))
		return -1;
	errno = 0;
	d = strtod(v, &end);
	if (errno || (*end == '%' && *++end) || *end || d > 100)
		return -1;
	*ppm = (uint32_t)(d * 10000 + 0.5);
	return 0;
}

/* The number v starts with (C base prefixes allowed), and where its
 * suffix begins; -1 if v does not start with one or it overflows. */
static int parse_number(const char *v, uint64_t *n, char **end)
{
	if (!v || !isdigit((unsigned char)*v))
		return -1;
	errno = 0;
	*n = strtoull(v, end, 0);
	return errno ? -1 : 0;
}

static int parse_size(const char *v, uint64_t *out)
{
	char *end;
	uint64_t n;

	if (parse_number(v, &n, &end) < 0)
		return -1;
	switch (tolower((unsigned char)*end)) {
	case 't': n <<= 10; /* fall through */
	case 'g': n <<= 10; /* fall through */
	case 'm': n <<= 10; /* fall through */
	case 'k': n <<= 10; end++; break;
	case '\0': break;
	default: return -1;
	}
	if (*end)
		return -1;
	*out = n;
	return 0;
}

/*
 * A time, as DTrace reads one: a number (C base prefixes allowed) and a
 * suffix, ns us ms s m h d (or their long forms, any case) or hz, a
 * frequency.  A bare number is nanoseconds, and 0hz stays 0, as in
 * libdtrace's dt_opt_rate.
 */
static int parse_rate(const char *v, uint64_t *ns)
{
	static const struct { const char *unit; uint64_t ns; } units[] = {
		{ "", 1 }, { "ns", 1 }, { "nsec", 1 }, { "us", 1000 },
		{ "usec", 1000 }, { "ms", 1000000 }, { "msec", 1000000 },
		{ "s", 1000000000 }, { "sec", 1000000000 },
		{ "m", 60000000000ull }, { "min", 60000000000ull },
		{ "h", 3600000000000ull }, { "hour", 3600000000000ull },
		{ "d", 86400000000000ull }, { "day", 86400000000000ull },
		{ "hz", 0 },
	};
	char *end;
	uint64_t n;

	if (parse_number(v, &n, &end) < 0)
		return -1;
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		if (strcasecmp(end, units[i].unit) != 0)
			continue;
		if (units[i].ns == 0)
			*ns = n ? 1000000000ull / n : 0;
		else
			*ns = n * units[i].ns;
		return 0;
	}
	return -1;
}

/* A word option's value: its index in names, or -1. */
static int parse_word(const char *v, const char *const *names, size_t n)
{
	for (size_t i = 0; v && i < n; i++)
		if (strcmp(v, names[i]) == 0)
			return (int)i;
	return -1;
}

static int parse_bufpolicy(const char *v, enum bufpolicy *out)
{
	static const char *const names[] = {
		[BUFPOLICY_SWITCH] = "switch", [BUFPOLICY_FILL] = "fill",
		[BUFPOLICY_RING] = "ring",
	};
	int i = parse_word(v, names, sizeof(names) / sizeof(names[0]));

	if (i < 0)
		return -1;
	*out = (enum bufpolicy)i;
	return 0;
}

/* oformat: FreeBSD DTrace's name; "text" is the default */
static int parse_oformat(const char *v, enum oformat *out)
{
	static const char *const names[] = {
		[OFORMAT_TEXT] = "text", [OFORMAT_JSON] = "json",
		[OFORMAT_FOLDED] = "folded", [OFORMAT_SVG] = "svg",
	};
	int i = parse_word(v, names, sizeof(names) / sizeof(names[0]));

	if (i < 0)
		return -1;
	*out = (enum oformat)i;
	return 0;
}

static int parse_evaltime(const char *v, enum evaltime *out)
{
	static const char *const names[] = {
		[EVALTIME_EXEC] = "exec", [EVALTIME_PREINIT] = "preinit",
		[EVALTIME_POSTINIT] = "postinit", [EVALTIME_MAIN] = "main",
	};
	int i = parse_word(v, names, sizeof(names) / sizeof(names[0]));

	if (i < 0)
		return -1;
	*out = (enum evaltime)i;
	return 0;
}

enum opt_kind {
	O_BOOL,		/* a run-time switch: yes/no, on/off, a number... */
	O_FLAG,		/* a compiler flag (dt_opt_cflags): takes no value */
	O_EVALTIME,	/* exec, preinit, postinit or main */
	O_SIZE, O_RATE, O_INT, O_POLICY, O_OFORMAT, O_CPU,
	O_PERCENT,	/* a share of the machine, uint32_t millionths */
	O_ACCEPT,	/* no visible effect here: the comment beside it says why */
	O_REFUSE,	/* not done: refused with the sentence in why */
	O_STR,		/* a char array: the value, replaced */
	O_STRLIST,	/* a char array: the value, appended */
};

/* What an O_ACCEPT option's value must look like, so that a value DTrace
 * would refuse is refused here too. */
enum opt_value { V_ANY, V_NONE, V_SIZE, V_RATE, V_COUNT, V_WORD };

/* Where an option may be set (OF_*; 0: anywhere, any time). */
enum {
	/* one of DTrace's run-time options (_dtrace_rtoptions): set before
	 * tracing starts, "Operation illegal when tracing is active" after
	 * (setopt); its dynamic ones and the compile-time ones are not */
	OF_FIXED = 1,
	/* shapes how the program is read: on the command line, not in a
	 * #pragma D option (compile.c) */
	OF_CMDLINE = 2,
};

#define FIXED .flags = OF_FIXED
#define CMDLINE .flags = OF_CMDLINE

static const struct {
	const char *name;
	enum opt_kind kind;
	size_t off;
	enum opt_value value;
	const char *why;	/* O_REFUSE: the sentence; V_WORD: "a|b|c" */
	unsigned flags;		/* OF_* */
} table[] = {
	{ "quiet", O_BOOL, offsetof(struct options, quiet) },
	{ "destructive", O_BOOL, offsetof(struct options, destructive), FIXED },
	{ "zdefs", O_FLAG, offsetof(struct options, zdefs) },
	{ "defaultargs", O_FLAG, offsetof(struct options, defaultargs) },
	{ "empty", O_FLAG, offsetof(struct options, empty) },
	{ "argref", O_FLAG, offsetof(struct options, argref) },
	{ "errtags", O_FLAG, offsetof(struct options, errtags) },
	{ "aggsortkey", O_BOOL, offsetof(struct options, aggsortkey) },
	{ "aggsortrev", O_BOOL, offsetof(struct options, aggsortrev) },
	{ "rawbytes", O_BOOL, offsetof(struct options, rawbytes) },
	{ "noresolve", O_BOOL, offsetof(struct options, noresolve) },
	{ "flowindent", O_BOOL, offsetof(struct options, flowindent) },
	{ "nolibs", O_FLAG, offsetof(struct options, nolibs) },
	/* verbose is -S: DTrace's DTRACE_C_DIFV */
	{ "verbose", O_FLAG, offsetof(struct options, disasm) },
	{ "aggsortpos", O_INT, offsetof(struct options, aggsortpos) },
	{ "aggsortkeypos", O_INT, offsetof(struct options, aggsortkeypos) },
	{ "stackindent", O_INT, offsetof(struct options, stackindent) },
	{ "stackframes", O_INT, offsetof(struct options, stackframes), FIXED },
	{ "ustackframes", O_INT, offsetof(struct options, ustackframes), FIXED },
	{ "ustackrows", O_SIZE, offsetof(struct options, ustackrows) },
	{ "maxframes", O_INT, offsetof(struct options, maxframes), FIXED },
	{ "cpu", O_CPU, offsetof(struct options, cpu), FIXED },
	{ "zone", O_STR, offsetof(struct options, zone) },
	{ "record", O_STR, offsetof(struct options, record) },
	{ "replay", O_STR, offsetof(struct options, replay) },
	{ "strsize", O_SIZE, offsetof(struct options, strsize), FIXED },
	{ "bufsize", O_SIZE, offsetof(struct options, bufsize), FIXED },
	{ "aggsize", O_SIZE, offsetof(struct options, aggsize), FIXED },
	{ "dynvarsize", O_SIZE, offsetof(struct options, dynvarsize), FIXED },
	{ "scratchsize", O_SIZE, offsetof(struct options, scratchsize), FIXED },
	{ "switchrate", O_RATE, offsetof(struct options, switchrate_ns) },
	{ "aggrate", O_RATE, offsetof(struct options, aggrate_ns) },
	{ "statusrate", O_RATE, offsetof(struct options, statusrate_ns), FIXED },
	{ "nspec", O_SIZE, offsetof(struct options, nspec), FIXED },
	{ "specsize", O_SIZE, offsetof(struct options, specsize), FIXED },
	{ "cleanrate", O_RATE, offsetof(struct options, cleanrate_ns), FIXED },
	{ "printsize", O_SIZE, offsetof(struct options, printsize) },
	{ "bufpolicy", O_POLICY, offsetof(struct options, bufpolicy), FIXED },
	/* dscope's own: a flight recorder bounded by time as bufsize bounds
	 * it by bytes (rt/bufpolicy.h); DTrace's ring has no clock */
	{ "buftime", O_RATE, offsetof(struct options, buftime_ns), FIXED },
	{ "oformat", O_OFORMAT, offsetof(struct options, oformat) },
	/* dscope's own: DTrace's deadman has no option (its tunables are the
	 * kernel's), bpftrace bounds probe counts, not cost (rt/budget.h) */
	{ "budget", O_PERCENT, offsetof(struct options, budget_ppm) },

	/* buffers are sized once, at enabling; one that cannot be made is an
	 * error under either policy, so there is nothing to resize */
	{ "bufresize", O_ACCEPT, 0, V_WORD, "auto|manual", FIXED },
	/* a dynamic variable's slot is freed when it is set to 0 (a map
	 * delete): no cleaning pass runs at any rate */
	{ "dynvarrate", O_ACCEPT, 0, V_RATE },
	/* BPF memory is charged to the memory cgroup on 6.x kernels, not to
	 * RLIMIT_MEMLOCK */
	{ "lockmem", O_ACCEPT, 0, V_SIZE, FIXED },
	/* this D has no jstack(): nothing has a default to change */
	{ "jstackframes", O_ACCEPT, 0, V_COUNT, FIXED },
	{ "jstackstrsize", O_ACCEPT, 0, V_SIZE, FIXED },
	/* DIF register counts: the BPF code generator allocates its own
	 * registers; DTrace takes only its own count of 8 */
	{ "iregs", O_ACCEPT, 0, V_WORD, "8" },
	{ "tregs", O_ACCEPT, 0, V_COUNT },
	/* -G writes its ELF object directly: no linker runs, so the linker's
	 * mode and path do not matter; DOF is not written */
	{ "linkmode", O_ACCEPT, 0, V_WORD, "kernel|static|dynamic", CMDLINE },
	{ "linktype", O_ACCEPT, 0, V_WORD, "elf", CMDLINE },
	{ "ldpath", O_ACCEPT, 0, V_ANY, CMDLINE },
	/* where the -c command is stopped while its probes are enabled
	 * (dt_opt_evaltime, dt_proc.c): rt/procstop.c */
	{ "evaltime", O_EVALTIME, offsetof(struct options, evaltime) },
	/* kernel module types come from /sys/kernel/btf, not module files */
	{ "modpath", O_ACCEPT, 0, V_ANY, CMDLINE },
	/* a probe description that cannot be a declaration is read as one
	 * already, as pspec asks */
	{ "pspec", O_ACCEPT, 0, V_NONE },
	/* -X's mode: cmd/main.c gives cpp -std=c99 for a, -traditional-cpp
	 * for s, as dt_preproc (tuning_ok checks the value) */
	{ "stdc", O_ACCEPT, 0, V_ANY },
	{ "version", O_ACCEPT, 0, V_ANY },
	/* kdefs, udefs: every kernel and user symbol named must exist, which
	 * is how dscope always reads them */
	{ "kdefs", O_ACCEPT, 0, V_NONE }, { "udefs", O_ACCEPT, 0, V_NONE },
	/* processes are not grabbed (their maps are read from /proc), so
	 * there is no cache of grabbed processes to bound */
	{ "pgmax", O_ACCEPT, 0, V_COUNT },
	/* memory is allocated at enabling in any case; USDT probes are read
	 * from each file's notes when a script names them, never loaded */
	{ "preallocate", O_ACCEPT, 0, V_SIZE },
	{ "lazyload", O_ACCEPT, 0, V_NONE },
	/* the preprocessor's options: dscope(1) turns these into cpp's
	 * arguments before the session sees them (cmd/main.c add_x) */
	{ "cpp", O_ACCEPT, 0, V_NONE, CMDLINE },
	{ "define", O_ACCEPT, 0, V_ANY, CMDLINE },
	{ "undef", O_ACCEPT, 0, V_ANY, CMDLINE },
	{ "incdir", O_ACCEPT, 0, V_ANY, CMDLINE },
	{ "cppargs", O_ACCEPT, 0, V_ANY },
	/* -S chooses what it prints with disasm; dscope has one form, the
	 * BPF instructions */
	{ "disasm", O_ACCEPT, 0, V_COUNT },

	{ "grabanon", O_REFUSE, 0, 0, "anonymous tracing is not supported",
	  FIXED },
	{ "amin", O_REFUSE, 0, 0,
	  "stability attributes are not tracked, so a minimum cannot be enforced" },
	{ "knodefs", O_REFUSE, 0, 0, "every kernel symbol named must exist" },
	{ "unodefs", O_REFUSE, 0, 0, "every user symbol named must exist" },
	{ "core", O_REFUSE, 0, 0, "dscope does not dump core at exit", CMDLINE },
	{ "debug", O_REFUSE, 0, 0, "dscope has no debugging output" },
	{ "tree", O_REFUSE, 0, 0, "dscope does not print parse trees" },
	{ "ctypes", O_REFUSE, 0, 0, "dscope does not write CTF" },
	{ "dtypes", O_REFUSE, 0, 0, "dscope does not write CTF" },
	{ "droptags", O_REFUSE, 0, 0, "drop messages carry no tags here" },
	{ "libdir", O_REFUSE, 0, 0,
	  "dscope's D library is built in: it reads no library directory", CMDLINE },
	{ "syslibdir", O_REFUSE, 0, 0,
	  "dscope's D library is built in: it reads no library directory", CMDLINE },
	{ "metrics", O_STR, offsetof(struct options, metrics) },
	{ "metrics_labels", O_STRLIST, offsetof(struct options, metrics_labels) },
	{ "metrics_stacks", O_BOOL, offsetof(struct options, metrics_stacks) },
	{ "metrics_maxsize", O_SIZE, offsetof(struct options, metrics_maxsize) },
	{ "metrics_webconfig", O_STR, offsetof(struct options, metrics_webconfig) },
	{ "metrics_insecure", O_BOOL, offsetof(struct options, metrics_insecure) },
};

/*
 * The values the accepted options take, as DTrace takes them: stdc is one
 * of -X's modes (a, c, s, t), and version names a D language version
 * this compiler implements (DTrace's, up to 2.0).
 */
static bool accept_ok(int i, const char *value, char *err, size_t errlen)
{
	const char *name = table[i].name;
	unsigned major = 0, minor = 0, micro = 0;
	uint64_t n;
	char end;
	bool ok = true;

	switch (table[i].value) {
	case V_ANY: ok = true; break;
	case V_NONE: ok = value == NULL; break;
	case V_SIZE: ok = parse_size(value, &n) == 0; break;
	case V_RATE: ok = parse_rate(value, &n) == 0; break;
	case V_COUNT: ok = parse_size(value, &n) == 0 && n > 0; break;
	case V_WORD: {
		size_t len = value ? strlen(value) : 0;
		const char *w = table[i].why;

		ok = false;
		for (; value && *w; w += strcspn(w, "|"), w += *w == '|')
			ok |= strncasecmp(w, value, len) == 0 &&
			      (w[len] == '|' || w[len] == '\0');
		break;
	}
	}
	if (strcmp(name, "stdc") == 0)
		ok = value && value[0] && !value[1] && strchr("acst", value[0]);
	if (ok && strcmp(name, "version") == 0) {
		if (!value || (sscanf(value, "%u.%u%c", &major, &minor, &end) != 2 &&
			       sscanf(value, "%u.%u.%u%c", &major, &minor, &micro,
				      &end) != 3)) {
			ok = false;
		} else if (major > 2 || (major == 2 && (minor > 0 || micro > 0))) {
			snprintf(err, errlen, "Requested version is not supported by compiler");
			return false;
		}
	}
	if (!ok)
		snprintf(err, errlen, "Invalid value for specified option");
	return ok;
}

/* cpu=N: a CPU this machine has */
/*
 * A boolean option's value, as DTrace's dt_opt_runtime reads it: none
 * sets it, an empty one unsets it, yes/no, enable(d)/disable(d),
 * true/false, on/off and set/unset in any case say which, and a number
 * sets it (any number: DTrace keeps it as the option's value, and only
 * "unset" is off).  Anything else is an invalid value.
 */
static int parse_bool(const char *value, bool *out)
{
	static const char *const couples[][2] = {
		{ "yes", "no" }, { "enable", "disable" },
		{ "enabled", "disabled" }, { "true", "false" },
		{ "on", "off" }, { "set", "unset" },
	};
	char *end;

	if (!value) {
		*out = true;
		return 0;
	}
	if (!value[0]) {
		*out = false;
		return 0;
	}
	for (size_t i = 0; i < sizeof(couples) / sizeof(couples[0]); i++)
		if (strcasecmp(value, couples[i][0]) == 0 ||
		    strcasecmp(value, couples[i][1]) == 0) {
			*out = strcasecmp(value, couples[i][0]) == 0;
			return 0;
		}
	errno = 0;
	(void)strtoull(value, &end, 0);
	if (*end || errno || value[0] == '-')
		return -1;
	*out = true;
	return 0;
}

static int parse_cpu(const char *v, int *out)
{
	uint64_t n;
	long ncpus = sysconf(_SC_NPROCESSORS_CONF);

	if (parse_size(v, &n) < 0 || (ncpus > 0 && n >= (uint64_t)ncpus))
		return -1;
	*out = (int)n;
	return 0;
}

/* The string options are fixed arrays, since struct options is copied
 * and never freed: metrics and metrics_webconfig (replaced) and
 * metrics_labels (appended to, so each -x or pragma adds an entry).
 * What they mean is checked when tracing starts (rt/metrics.c), where
 * the sentence can say more. */
static int set_string(char *p, size_t size, bool append, const char *name,
		      const char *value, char *err, size_t errlen)
{
	size_t used = append ? strlen(p) : 0;

	if (!value || !*value || strchr(value, ' ')) {
		snprintf(err, errlen, "%s wants a value without spaces", name);
		return -1;
	}
	if (used + (used > 0) + strlen(value) >= size) {
		snprintf(err, errlen, "value too long (at most %zu bytes in all)",
			 size - 1);
		return -1;
	}
	if (used > 0)
		p[used++] = ' ';
	strcpy(p + used, value);
	return 0;
}

static int find(const char *name)
{
	for (size_t i = 0; i < sizeof(table) / sizeof(table[0]); i++)
		if (strcmp(table[i].name, name) == 0)
			return (int)i;
	return -1;
}

bool options_fixed_once_tracing(const char *name)
{
	int i = find(name);

	return i >= 0 && (table[i].flags & OF_FIXED);
}

bool options_cmdline_only(const char *name)
{
	int i = find(name);

	return i >= 0 && (table[i].flags & OF_CMDLINE);
}

/* name, the value it takes, then what dscope does: "yes", "accepted"
 * (O_ACCEPT: its comment above says why that is all) or "no: why" */
void options_list(FILE *f)
{
	static const char *const values[] = {
		[O_BOOL] = "toggle", [O_FLAG] = "flag",
		[O_EVALTIME] = "exec|preinit|postinit|main", [O_SIZE] = "size",
		[O_RATE] = "time or rate", [O_INT] = "integer",
		[O_POLICY] = "switch|fill|ring", [O_OFORMAT] = "text|json|folded|svg",
		[O_CPU] = "cpu", [O_PERCENT] = "percent|off", [O_STR] = "string",
		[O_STRLIST] = "strings",
	};
	static const char *const accepted[] = {
		[V_ANY] = "string", [V_NONE] = "flag", [V_SIZE] = "size",
		[V_RATE] = "time or rate", [V_COUNT] = "count", [V_WORD] = "",
	};

	fprintf(f, "D options (-x name[=value], #pragma D option):\n");
	for (size_t i = 0; i < sizeof(table) / sizeof(table[0]); i++) {
		const char *v = table[i].kind == O_REFUSE ? "" :
				table[i].kind != O_ACCEPT ? values[table[i].kind] :
				table[i].value == V_WORD ? table[i].why
							 : accepted[table[i].value];

		fprintf(f, "  %-19s %-28s %s%s%s\n", table[i].name, v,
			table[i].kind == O_REFUSE ? "no: " :
			table[i].kind == O_ACCEPT ? "accepted" : "yes",
			table[i].kind == O_REFUSE ? table[i].why : "",
			table[i].flags & OF_CMDLINE ? " (command line only)" : "");
	}
}

int options_set(struct options *o, const char *name, const char *value,
		char *err, size_t errlen)
{
	for (size_t i = 0; i < sizeof(table) / sizeof(table[0]); i++) {
		uint64_t n = 0;
		void *p = (char *)o + table[i].off;

		if (strcmp(table[i].name, name) != 0)
			continue;
		switch (table[i].kind) {
		case O_BOOL:
			if (parse_bool(value, p) < 0)
				break;
			return 0;
		case O_FLAG:
			if (value)
				break;
			*(bool *)p = true;
			return 0;
		case O_EVALTIME:
			if (parse_evaltime(value, p) < 0)
				break;
			return 0;
		case O_ACCEPT:
			return accept_ok((int)i, value, err, errlen) ? 0 : -1;
		case O_REFUSE:
			snprintf(err, errlen, "%s", table[i].why);
			return -1;
		case O_CPU:
			if (parse_cpu(value, p) < 0)
				break;
			return 0;
		case O_INT:
			if (!value || parse_size(value, &n) < 0 || n > INT32_MAX)
				break;
			*(int *)p = (int)n;
			return 0;
		case O_SIZE:
			if (parse_size(value, &n) < 0)
				break;
			if (p == &o->strsize) {
				/* room for DTrace's 2-byte NULL string mark
				 * (dt_opt_strsize) */
				if (n < 2 || n > 4096)
					break;
				o->strsize = (uint32_t)n;
			} else if (p == &o->nspec && n > SPEC_NSPEC_MAX) {
				break;
			} else if (p == &o->scratchsize && n > ALLOCA_REGION) {
				break;	/* more than the area alloca() has */
			} else if (p == &o->ustackrows && n > UINT32_MAX) {
				break;	/* rows are indexed by 32 bits */
			} else {
				*(uint64_t *)p = n;
			}
			return 0;
		case O_RATE:
			if (parse_rate(value, &n) < 0)
				break;
			*(uint64_t *)p = n;
			return 0;
		case O_PERCENT:
			if (parse_percent(value, p) < 0)
				break;
			o->budget_set = true;
			return 0;
		case O_POLICY:
			if (parse_bufpolicy(value, p) < 0)
				break;
			return 0;
		case O_OFORMAT:
			if (parse_oformat(value, p) < 0)
				break;
			return 0;
		case O_STR:
		case O_STRLIST:
			return set_string(p, table[i].kind == O_STRLIST
					  ? sizeof(o->metrics_labels)
					  : p == o->metrics_webconfig
					  ? sizeof(o->metrics_webconfig)
					  : sizeof(o->metrics),
					  table[i].kind == O_STRLIST, name, value,
					  err, errlen);
		}
		snprintf(err, errlen, "Invalid value for specified option");
		return -1;
	}
	snprintf(err, errlen, "Invalid option name");
	return -1;
}

uint32_t options_agg_entries(const struct options *o, uint32_t entry_size)
{
	uint64_t n = o->aggsize / (entry_size ? entry_size : 8);

	if (n < 64)
		n = 64;
	if (n > 65536)
		n = 65536;
	return (uint32_t)n;
}

uint32_t bufpolicy_cost(uint32_t size)
{
	return (8 + 4 + size + 7) & ~7u;
}
