/*
 * fmt.h -- DTrace's printf formats, as the language defines them.
 *
 * A format string is parsed once, at compile time (fmt_parse), into a list
 * of conversions, each carrying the literal text that precedes it.  The
 * compiler then checks the argument types against it (fmt_check), with the
 * error tags and wording of dtrace(1).  Each conversion points at its row
 * of the conversion table, which also says how the runtime prints it
 * (rt/format.h).
 */
#ifndef DSCOPE_FMT_H
#define DSCOPE_FMT_H

#include <stdbool.h>
#include <stddef.h>

#include "base/arena.h"
#include "base/diag.h"
#include "d/types.h"

enum {
	FMT_F_ALT = 1 << 0,	/* '#' */
	FMT_F_ZPAD = 1 << 1,	/* '0' */
	FMT_F_LEFT = 1 << 2,	/* '-' */
	FMT_F_SPOS = 1 << 3,	/* '+' */
	FMT_F_GROUP = 1 << 4,	/* '\'' */
	FMT_F_SPACE = 1 << 5,	/* ' ' */
	FMT_F_DYNWIDTH = 1 << 6,	/* '*' width */
	FMT_F_DYNPREC = 1 << 7,	/* '.*' precision */
	FMT_F_AGG = 1 << 8,	/* '@': the aggregation value (printa) */
};

/* A row of the conversion table (fmt.c): which argument types the
 * conversion takes, and how rt/format.c prints the value. */
enum check_kind {
	CK_KADDR,	/* pointer, integer or symbol address */
	CK_UADDR,	/* the same, for user addresses */
	CK_STACK,	/* stack() / ustack() */
	CK_TIME,	/* 64-bit integer */
	CK_STR,		/* string */
	CK_WSTR,	/* wchar_t []: D has none, always rejected */
	CK_CSI,		/* integer of at most 4 bytes */
	CK_FP,		/* float, double or long double */
	CK_XINT,	/* any integer */
	CK_DINT,	/* any integer; unsigned ones print as %u */
	CK_SIZE,	/* integer of exactly `size` bytes, either sign */
	CK_TYPE,	/* integer of exactly `size` bytes and `sign` */
	CK_VOID,	/* %%: takes no argument */
};

enum print_kind {
	PR_SINT, PR_UINT, PR_DINT, PR_FP, PR_ADDR, PR_UADDR, PR_STACK,
	PR_TIME, PR_TIME822, PR_CSTR, PR_WSTR, PR_ESTR, PR_ECHR, PR_PCT,
};

struct fmt_conv_info {
	const char *name;	/* as written after the flags: "hd" */
	const char *letters;	/* C conversion: "d", "lc", "s" */
	const char *proto;	/* prototype text for messages */
	enum check_kind check;
	enum print_kind print;
	unsigned char size;	/* CK_SIZE / CK_TYPE: bytes */
	bool is_signed;		/* CK_TYPE */
};

struct fmt_conv {
	const char *prefix;	/* literal text before the conversion */
	size_t preflen;
	const struct fmt_conv_info *info;	/* NULL: trailing text only */
	unsigned flags;		/* FMT_F_* */
	int width, prec;	/* 0 when absent ('?' sets width 16) */
};

struct fmt {
	const char *src;	/* the format string as written */
	int nconv;		/* entries in conv, including trailing text */
	struct fmt_conv *conv;
};

/*
 * Parse fmt (arena-allocated result).  A malformed conversion fails with
 * [D_SYNTAX] "format conversion #N ..." at line/col, as DTrace does.
 * Returns 0.
 */
int fmt_parse(struct arena *a, const char *fmt, struct fmt **out,
	      struct diag *d, int line, int col);

/* What the format is used for: decides the messages and the rules. */
struct fmt_use {
	const char *func;	/* "printf", "printa", "sprintf", ... */
	int argoff;		/* arguments before the first value (1 for printf) */
	bool exactlen;		/* extra arguments are an error (printf) */
	bool printa;		/* %@ allowed; argtypes are the key types */
	bool agg_count;		/* printa of count(): %@ is unsigned */
};

/*
 * Check argtypes (the value arguments after the format, in order; for
 * printa the aggregation's key types) against f.  Fails with D_PRINTF_*
 * tags and DTrace's text.  A T_AGG argument names itself "aggregation".
 * The format argument itself (D_PROTO_LEN for printf(), D_PROTO_ARG for a
 * non-string format) is the caller's to check.
 */
void fmt_check_use(const struct fmt *f, const struct fmt_use *use,
		   const struct dtype *argtypes, int nargs, struct diag *d,
		   int line, int col);

/* fmt_check_use for printf(): the format is argument #1, no extras. */
/*
 * Does f print a user address (%A)?  Its symbols come from the -p/-c
 * target's maps, which must be read while the target still lives.
 */
bool fmt_names_uaddr(const struct fmt *f);

void fmt_check(const struct fmt *f, const struct dtype *argtypes, int nargs,
	       struct diag *d, int line, int col);

/* zonename and cgroup_path(): a cgroup id that %s and trace() print
 * as a string, by the name the consumer finds for it */
bool fmt_is_named_id(const struct dtype *t);

#endif /* DSCOPE_FMT_H */
