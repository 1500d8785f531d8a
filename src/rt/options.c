/*
 * options.c -- parse and hold DTrace options.  See options.h.
 *
 * Every option name DTrace documents is accepted; the ones dscope does not
 * act on yet are accepted without effect only when they are about tuning
 * (cpu, bufresize, ...), never when they would change what is
 * printed: those are listed in unsupported[] and refused with a sentence.
 */
#include "rt/options.h"
#include "rt/spec.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* speculation() scans the IDs in a bounded BPF loop: keep it short */
#define SPEC_NSPEC_MAX 1024

void options_init(struct options *o)
{
	memset(o, 0, sizeof(*o));
	o->strsize = 256;
	o->bufsize = 4 << 20;
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
}

static int parse_size(const char *v, uint64_t *out)
{
	char *end;

	if (!v || !isdigit((unsigned char)*v))
		return -1;
	errno = 0;
	uint64_t n = strtoull(v, &end, 0);

	if (errno)
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

	if (!v || !isdigit((unsigned char)*v))
		return -1;
	errno = 0;
	uint64_t n = strtoull(v, &end, 0);

	if (errno)
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

static int parse_bufpolicy(const char *v, enum bufpolicy *out)
{
	static const char *const names[] = {
		[BUFPOLICY_SWITCH] = "switch", [BUFPOLICY_FILL] = "fill",
		[BUFPOLICY_RING] = "ring",
	};

	for (size_t i = 0; v && i < sizeof(names) / sizeof(names[0]); i++)
		if (strcmp(v, names[i]) == 0) {
			*out = (enum bufpolicy)i;
			return 0;
		}
	return -1;
}

enum opt_kind { O_BOOL, O_SIZE, O_RATE, O_INT, O_POLICY, O_TUNING };

static const struct {
	const char *name;
	enum opt_kind kind;
	size_t off;
} table[] = {
	{ "quiet", O_BOOL, offsetof(struct options, quiet) },
	{ "destructive", O_BOOL, offsetof(struct options, destructive) },
	{ "zdefs", O_BOOL, offsetof(struct options, zdefs) },
	{ "defaultargs", O_BOOL, offsetof(struct options, defaultargs) },
	{ "errtags", O_BOOL, offsetof(struct options, errtags) },
	{ "aggsortkey", O_BOOL, offsetof(struct options, aggsortkey) },
	{ "aggsortrev", O_BOOL, offsetof(struct options, aggsortrev) },
	{ "aggsortpos", O_INT, offsetof(struct options, aggsortpos) },
	{ "aggsortkeypos", O_INT, offsetof(struct options, aggsortkeypos) },
	{ "stackindent", O_INT, offsetof(struct options, stackindent) },
	{ "strsize", O_SIZE, offsetof(struct options, strsize) },
	{ "bufsize", O_SIZE, offsetof(struct options, bufsize) },
	{ "aggsize", O_SIZE, offsetof(struct options, aggsize) },
	{ "dynvarsize", O_SIZE, offsetof(struct options, dynvarsize) },
	{ "scratchsize", O_SIZE, offsetof(struct options, scratchsize) },
	{ "switchrate", O_RATE, offsetof(struct options, switchrate_ns) },
	{ "aggrate", O_RATE, offsetof(struct options, aggrate_ns) },
	{ "statusrate", O_RATE, offsetof(struct options, statusrate_ns) },
	{ "nspec", O_SIZE, offsetof(struct options, nspec) },
	{ "specsize", O_SIZE, offsetof(struct options, specsize) },
	{ "cleanrate", O_RATE, offsetof(struct options, cleanrate_ns) },
	{ "printsize", O_SIZE, offsetof(struct options, printsize) },
	{ "bufpolicy", O_POLICY, offsetof(struct options, bufpolicy) },
	/* tuning without an effect on output: accepted, not yet acted on */
	{ "bufresize", O_TUNING, 0 },
	{ "cpu", O_TUNING, 0 },
	{ "dynvarrate", O_TUNING, 0 }, { "maxframes", O_TUNING, 0 },
	{ "ustackframes", O_TUNING, 0 }, { "stackframes", O_TUNING, 0 },
	{ "jstackframes", O_TUNING, 0 }, { "jstackstrsize", O_TUNING, 0 },
	{ "lockmem", O_TUNING, 0 }, { "linkmode", O_TUNING, 0 },
	{ "linktype", O_TUNING, 0 }, { "verbose", O_TUNING, 0 },
	{ "amin", O_TUNING, 0 }, { "argref", O_TUNING, 0 },
	{ "core", O_TUNING, 0 }, { "cppargs", O_TUNING, 0 },
	{ "debug", O_TUNING, 0 }, { "droptags", O_TUNING, 0 },
	{ "evaltime", O_TUNING, 0 }, { "iregs", O_TUNING, 0 },
	{ "knodefs", O_TUNING, 0 }, { "nolibs", O_TUNING, 0 },
	{ "pgmax", O_TUNING, 0 }, { "procfs", O_TUNING, 0 },
	{ "pspec", O_TUNING, 0 }, { "stdc", O_TUNING, 0 },
	{ "syslibdir", O_TUNING, 0 }, { "tree", O_TUNING, 0 },
	{ "tregs", O_TUNING, 0 }, { "udefs", O_TUNING, 0 },
	{ "unodefs", O_TUNING, 0 }, { "version", O_TUNING, 0 },
	{ "disasm", O_TUNING, 0 }, { "rawbytes", O_TUNING, 0 },
	{ "noresolve", O_TUNING, 0 }, { "flowindent", O_TUNING, 0 },
	{ "incdir", O_TUNING, 0 }, { "define", O_TUNING, 0 },
	{ "undef", O_TUNING, 0 }, { "libdir", O_TUNING, 0 },
	{ "grabanon", O_TUNING, 0 }, { "ctypes", O_TUNING, 0 },
	{ "dtypes", O_TUNING, 0 }, { "modpath", O_TUNING, 0 },
	{ "preallocate", O_TUNING, 0 }, { "lazyload", O_TUNING, 0 },
};

/*
 * The tuning options dscope accepts without acting on still take only
 * the values DTrace takes: stdc is one of its -X modes (a, c, s, t; dscope
 * runs cpp the same way for each), and version names a D language
 * version this compiler implements (DTrace's, up to 2.0).
 */
static bool tuning_ok(const char *name, const char *value, char *err,
		      size_t errlen)
{
	unsigned major = 0, minor = 0, micro = 0;
	char end;

	if (strcmp(name, "stdc") == 0 &&
	    !(value && value[0] && !value[1] && strchr("acst", value[0]))) {
		snprintf(err, errlen, "Invalid value for specified option");
		return false;
	}
	if (strcmp(name, "version") != 0)
		return true;
	if (!value || (sscanf(value, "%u.%u%c", &major, &minor, &end) != 2 &&
		       sscanf(value, "%u.%u.%u%c", &major, &minor, &micro, &end) != 3)) {
		snprintf(err, errlen, "Invalid value for specified option");
		return false;
	}
	if (major > 2 || (major == 2 && (minor > 0 || micro > 0))) {
		snprintf(err, errlen, "Requested version is not supported by compiler");
		return false;
	}
	return true;
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
			*(bool *)p = true;
			return 0;
		case O_TUNING:
			if (tuning_ok(name, value, err, errlen))
				return 0;
			return -1;
		case O_INT:
			if (!value || parse_size(value, &n) < 0)
				break;
			*(int *)p = (int)n;
			return 0;
		case O_SIZE:
			if (parse_size(value, &n) < 0)
				break;
			if (p == &o->strsize) {
				if (n == 0 || n > 4096)
					break;
				o->strsize = (uint32_t)n;
			} else if (p == &o->nspec && n > SPEC_NSPEC_MAX) {
				break;
			} else if (p == &o->scratchsize && n > ALLOCA_REGION) {
				break;	/* more than the area alloca() has */
			} else {
				*(uint64_t *)p = n;
			}
			return 0;
		case O_RATE:
			if (parse_rate(value, &n) < 0)
				break;
			*(uint64_t *)p = n;
			return 0;
		case O_POLICY:
			if (parse_bufpolicy(value, p) < 0)
				break;
			return 0;
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
