/*
 * fuzz_maps.c -- libFuzzer over /proc/PID/maps lines as usym.c reads
 * them (tests/fuzz/README.md).
 *
 * A process cannot write its own maps, but it names the files in them
 * (any path, spaces, newlines and " (deleted)" included), and the kernel
 * may one day add a field.  The input is split into lines as fgets()
 * splits the file (4096 bytes at most each), and each goes through
 * usym_maps_line().  For every line: a path inside the line starting
 * with '/', a range that is not empty, no crash.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "obj/usym.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char line[4096];
	size_t at = 0;

	while (at < size) {
		size_t len = 0;

		while (at < size && len < sizeof(line) - 1) {
			line[len++] = (char)data[at];
			if (data[at++] == '\n')
				break;
		}
		line[len] = '\0';
		line[strcspn(line, "\n")] = '\0';

		uint64_t start, end, pgoff;
		const char *path;

		if (usym_maps_line(line, &start, &end, &pgoff, &path) &&
		    (path < line || path >= line + len || *path != '/' || end <= start))
			abort();
	}
	return 0;
}
