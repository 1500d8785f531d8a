/*
 * fuzz_perfmap.c -- libFuzzer over a /tmp/perf-PID.map file's lines
 * (tests/fuzz/README.md).
 *
 * The input is the file, read by perfmap_parse() (obj/perfmap.c) as
 * perfmap_refresh() reads it; then every start, the address past each
 * end and one before each start are looked up as a stack's addresses
 * are.  For every input: symbols sorted by start with one per start, a
 * lookup that finds only a symbol containing the address, no crash, no
 * leak.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "obj/perfmap.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct perfmap m = { 0 };
	FILE *fp = fmemopen((void *)data, size, "r");

	if (!fp)
		return 0;
	perfmap_parse(&m, fp);
	fclose(fp);
	for (size_t i = 0; i < m.n; i++) {
		const struct perfmap_sym *s = m.v + i;
		const uint64_t probes[] = { s->start, s->start + s->size, s->start - 1 };

		if (i && s->start <= m.v[i - 1].start)
			abort();
		for (int k = 0; k < 3; k++) {
			const struct perfmap_sym *f = perfmap_find(&m, probes[k]);

			if (f && (probes[k] < f->start ||
				  probes[k] - f->start >= (f->size ? f->size : 1)))
				abort();
		}
	}
	perfmap_clear(&m);
	return 0;
}
