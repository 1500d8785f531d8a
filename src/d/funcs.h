/*
 * funcs.h -- D's functions: every subroutine, action and aggregating
 * function DTrace defines, and dscope's own, one row each.
 *
 * The rows are DTrace's (libdtrace's _dtrace_globals[] in dt_open.c, with
 * dtrace.h's DIF_SUBR_* and the DT_ACT_* actions): the name, the kind of
 * identifier, the prototype as dt_open.c writes it, and whether it is
 * destructive or records data.  Each row also says what dscope does with
 * the function: supports it as DTrace does, supports it differently on
 * Linux (the note says how), or refuses it, with the one sentence the
 * user gets and DTrace's error tag.
 *
 * The parser resolves a call's name to its row once (node.fn); sema's
 * checks, cg's emitters and the consumer dispatch on the row's id, never
 * on the name.  Adding a function is one row here and one emitter.
 *
 * ORDER: the ids and the rows by name, dscope's private ones first, as
 * dscope -vV lists them.
 */
#ifndef DSCOPE_D_FUNCS_H
#define DSCOPE_D_FUNCS_H

#include <stdbool.h>
#include <stdio.h>

enum dfunc {
	DF_NONE,		/* not a function D knows */
	DF_BD_DEVT, DF_BD_PARTNO, DF_BIO_DEVT, DF_BIO_DISK, DF_BIO_PARTNO,
	DF_CPU_CHIP, DF_CPU_LGRP, DF_CPU_PINFO, DF_EXECARGS, DF_MOUNTPOINT,
	DF_PSARGS, DF_RQ_DISK, DF_TASK_STATE,
	DF_ALLOCA, DF_AVG, DF_BASENAME, DF_BCOPY, DF_BREAKPOINT,
	DF_CGROUP_PATH, DF_CHILL, DF_CLEANPATH, DF_CLEAR, DF_COMMIT,
	DF_COPYIN, DF_COPYINSTR, DF_COPYINTO, DF_COPYOUT, DF_COPYOUTSTR,
	DF_COUNT, DF_D_PATH, DF_DDI_PATHNAME, DF_DENORMALIZE, DF_DIRNAME,
	DF_DISCARD, DF_EXIT, DF_FREOPEN, DF_FTRUNCATE, DF_FUNC, DF_GETMAJOR,
	DF_GETMINOR, DF_HTONL, DF_HTONLL, DF_HTONS, DF_INDEX, DF_INET_NTOA,
	DF_INET_NTOA6, DF_INET_NTOP, DF_JSTACK, DF_LINK_NTOP, DF_LLQUANTIZE,
	DF_LLTOSTR, DF_LQUANTIZE, DF_MAX, DF_MIN, DF_MOD, DF_MSGDSIZE,
	DF_MSGSIZE, DF_MUTEX_OWNED, DF_MUTEX_OWNER, DF_MUTEX_TYPE_ADAPTIVE,
	DF_MUTEX_TYPE_SPIN, DF_NORMALIZE, DF_NTOHL, DF_NTOHLL, DF_NTOHS,
	DF_PANIC, DF_PCAP, DF_PRINT, DF_PRINTA, DF_PRINTF, DF_PROGENYOF,
	DF_QUANTIZE, DF_RAISE, DF_RAND, DF_RINDEX, DF_RW_ISWRITER,
	DF_RW_READ_HELD, DF_RW_WRITE_HELD, DF_SETOPT, DF_SPECULATE,
	DF_SPECULATION, DF_STACK, DF_STDDEV, DF_STOP, DF_STRCHR, DF_STRJOIN,
	DF_STRLEN, DF_STRRCHR, DF_STRSTR, DF_STRTOK, DF_STRTOLL, DF_SUBSTR,
	DF_SUM, DF_SYM, DF_SYSTEM, DF_TOLOWER, DF_TOUPPER, DF_TRACE,
	DF_TRACEMEM, DF_TRUNC, DF_UADDR, DF_UFUNC, DF_UMOD, DF_USTACK,
	DF_USYM,
	DF_NFUNCS
};

/* What kind of identifier DTrace makes of the name (dt_ident.h). */
enum dfunc_kind {
	DFK_SUBR,	/* a subroutine, which has a value: strlen() */
	DFK_ACTION,	/* an action, a "tracing function": printf() */
	DFK_AGG,	/* an aggregating function: count() */
	DFK_PRIVATE,	/* dscope's own, for its D library: __psargs() */
};

enum {
	DFF_DESTRUCTIVE = 1,	/* needs -w (DTRACE_PRIV_DESTRUCTIVE) */
	DFF_DATAREC = 2,	/* records data in the principal buffer: the
				 * speculation rules of sema_speculation.c */
};

enum dfunc_support {
	DFS_YES,	/* as DTrace does it */
	DFS_LINUX,	/* differently on Linux: note says how */
	DFS_REFUSED,	/* compiled never: note is the sentence, tag the tag */
};

struct dfunc_row {
	const char *name;
	enum dfunc_kind kind;
	const char *proto;	/* DTrace's prototype: "string(const char *)";
				 * "[t]" optional, "@" any type, "..." more */
	unsigned flags;		/* DFF_* */
	enum dfunc_support support;
	const char *note;	/* DFS_LINUX, DFS_REFUSED: see above */
	const char *tag;	/* DFS_REFUSED: DTrace's error tag */
};

/* The row of id (DF_NONE has none: NULL). */
const struct dfunc_row *dfunc_row(enum dfunc id);

/* The id of function name, or DF_NONE. */
enum dfunc dfunc_lookup(const char *name);

/* Is id one of DTrace's functions (not DF_NONE, not dscope's private)? */
bool dfunc_is_dtrace(enum dfunc id);

/* The table, one line a row: dscope -vV prints it. */
void dfunc_list(FILE *f);

#endif /* DSCOPE_D_FUNCS_H */
