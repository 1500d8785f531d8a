/*
 * diag.c -- record the first compile error and unwind to the driver.
 */
#include "diag.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>

/* A quarter of the smallest stack a caller is likely to run us on (a
 * 1 MiB thread stack); sanitizers' redzones make frames several times
 * bigger, so their builds get more. */
#if defined(__SANITIZE_ADDRESS__)
#define DIAG_STACK_MAX (1024 * 1024)
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define DIAG_STACK_MAX (1024 * 1024)
#endif
#endif
#ifndef DIAG_STACK_MAX
#define DIAG_STACK_MAX (256 * 1024)
#endif

_Noreturn void diag_fail(struct diag *d, int line, int col, const char *tag,
			 const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(d->msg, sizeof(d->msg), fmt, ap);
	va_end(ap);
	d->tag = tag;
	d->line = line;
	d->col = col;
	longjmp(*d->env, 1);
}

void diag_check_stack(struct diag *d, int line, int col)
{
	const char *here = __builtin_frame_address(0);

	if (!d->stack_base || here > d->stack_base) {
		d->stack_base = here;	/* the shallowest check so far */
		return;
	}
	if ((uintptr_t)(d->stack_base - here) > DIAG_STACK_MAX)
		diag_fail(d, line, col, "D_EXPR_DEPTH",
			  "program nests too deeply: more than %d KiB of "
			  "compiler stack", DIAG_STACK_MAX / 1024);
}
