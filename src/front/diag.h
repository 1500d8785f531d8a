/*
 * diag.h -- compile-time diagnostics.
 *
 * The front end and the code generator stop at the first error, as DTrace
 * does: diag_fail() records the message, its DTrace error tag (D_SYNTAX,
 * D_AGG_REDEF, ...) and the position, then longjmps to the compile's
 * entry point.  The command line prints it as dtrace(1) does:
 *
 *   dscope: failed to compile script x.d: [D_SYNTAX] line 3: syntax error near "}"
 *
 * (the tag only with -xerrtags).  The column is kept for callers that show
 * a caret; DTrace's own message carries the line alone.
 */
#ifndef DSCOPE_DIAG_H
#define DSCOPE_DIAG_H

#include <setjmp.h>

struct diag {
	const char *tag;	/* DTrace error tag, "D_SYNTAX"; NULL if none */
	int line, col;		/* 1-based; 0 when the error has no position */
	char msg[1024];		/* the message, without position or tag */
	jmp_buf *env;		/* where diag_fail() jumps; set by the compile driver */
};

_Noreturn void diag_fail(struct diag *d, int line, int col, const char *tag,
			 const char *fmt, ...) __attribute__((format(printf, 5, 6)));

#endif /* DSCOPE_DIAG_H */
