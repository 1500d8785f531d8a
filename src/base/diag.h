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
	const char *stack_base;	/* diag_check_stack()'s first frame; NULL before */
};

_Noreturn void diag_fail(struct diag *d, int line, int col, const char *tag,
			 const char *fmt, ...) __attribute__((format(printf, 5, 6)));

/*
 * The parser, sema and cg recurse as deep as the program nests, and a
 * program may nest as deep as it likes: "((((...", "!!!!...", a sum of
 * 100000 terms (a left-deep tree).  Each recursive function calls this on
 * entry: past DIAG_STACK_MAX bytes of stack below the first call of the
 * compile, it fails with D_EXPR_DEPTH instead of overflowing the stack
 * (found by the fuzzer, tests/fuzz).  Scripts people write use a few KiB.
 */
void diag_check_stack(struct diag *d, int line, int col);

#endif /* DSCOPE_DIAG_H */
