/*
 * diag.c -- record the first compile error and unwind to the driver.
 */
#include "diag.h"

#include <stdarg.h>
#include <stdio.h>

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
