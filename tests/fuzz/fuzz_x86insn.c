/*
 * fuzz_x86insn.c -- libFuzzer over the x86-64 length decoder with
 * arbitrary bytes (tests/fuzz/README.md).
 *
 * The input is a function's bytes, as the pid provider reads them from
 * a file (prov/pid.c): each offset decoded alone, then the function
 * walked and the instructions reached from its entry marked
 * (obj/x86insn.c).  For every input: lengths of 1 to 15 bytes within
 * what is readable, instruction starts increasing inside the function,
 * a reached count no larger than the walk's, no crash, no read past the
 * end (ASan: the buffer is exactly the input).
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

#include "obj/x86insn.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint32_t *starts = malloc((size ? size : 1) * sizeof(*starts));
	bool *reached = malloc(size ? size : 1);
	size_t bad;
	long n, r;

	for (size_t i = 0; i < size && i < 64; i++) {
		struct x86insn in;

		if (x86insn_decode(data + i, size - i, &in) &&
		    (in.len < 1 || in.len > X86INSN_MAX || in.len > size - i))
			abort();
	}
	n = x86insn_walk(data, size, starts, &bad);
	if (n > (long)size || (n < 0 && bad >= size))
		abort();
	for (long k = 1; k < n; k++)
		if (starts[k] <= starts[k - 1] || starts[k] >= size)
			abort();
	if (n > 0) {
		r = x86insn_reach(data, size, starts, n, reached, &bad);
		if (r > n)
			abort();
	}
	free(starts);
	free(reached);
	return 0;
}
