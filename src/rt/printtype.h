/*
 * printtype.h -- print() and tracemem() output: recorded memory shown by
 * its C type, or as a hex dump.
 */
#ifndef DSCOPE_PRINTTYPE_H
#define DSCOPE_PRINTTYPE_H

#include <stdint.h>
#include <stdio.h>

#include "d/types.h"

/*
 * print(p): "0x... = *" and the object of type t whose first len bytes
 * are data, in DTrace's layout.  printsize bytes at most are shown; a
 * member that starts beyond them (or a scalar that ends beyond them) and
 * everything after it is replaced by "...".
 */
void printtype_print(FILE *out, uint64_t addr, const struct dtype *t,
		     const unsigned char *data, uint32_t len,
		     uint64_t printsize);

/* tracemem(): n bytes as DTrace's hex dump (offsets, bytes, characters) */
void printtype_hexdump(FILE *out, const unsigned char *data, uint32_t n);

#endif /* DSCOPE_PRINTTYPE_H */
