/*
 * fuzz_ehframe.c -- libFuzzer over an .eh_frame section's bytes
 * (tests/fuzz/README.md).
 *
 * Byte 0 chooses the section's link-time address (0, a typical
 * executable's, one near the top of the address space, where pc
 * arithmetic wraps); the rest is the section, CIEs and FDEs, run through
 * ehframe_rows() as unwind_file_rows() runs it.  For every input: 0 or
 * -EINVAL, rows sorted by pc, no crash, no leak.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>

#include "obj/ehframe.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const uint64_t vaddrs[] = { 0, 0x2000, 0x401000,
					   0xfffffffffffff000ull };
	struct eh_row *rows = NULL;
	size_t n = 0;
	uint64_t vaddr;
	int rc;

	if (size < 1)
		return 0;
	vaddr = vaddrs[data[0] & 3];
	size_t bad = SIZE_MAX;

	rc = ehframe_rows(data + 1, size - 1, vaddr, &rows, &n, &bad);
	if (rc != 0 && rc != -EINVAL && rc != -ENOMEM)
		abort();
	if (rc == -EINVAL && bad >= size - 1)
		abort();	/* the damage is inside the section */
	for (size_t i = 1; i < n; i++)
		if (rows[i].pc < rows[i - 1].pc)
			abort();	/* the BPF search needs them sorted */
	free(rows);
	return 0;
}
