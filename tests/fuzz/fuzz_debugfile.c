/*
 * fuzz_debugfile.c -- libFuzzer over the build-id and .gnu_debuglink of
 * an ELF file and the search for its debug file (tests/fuzz/README.md).
 *
 * The input is the main file.  Its build-id and debug link are read
 * (obj/debugfile.c); then, so that the candidates' own checks run too,
 * the input is put where each says its debug file is (DSCOPE_DEBUGDIR's
 * .build-id/xx/rest.debug, and the link's name beside the file) and
 * debugfile_find() searches.  A file being its own debug file is what
 * a debug file looks like to the checks: the same build-id, or a CRC the
 * fuzzer may hit.  For every input: no crash, no leak, a found path
 * that exists.
 */
#include "fuzz_file.h"	/* first: it asks for _GNU_SOURCE */

#include <gelf.h>
#include <libelf.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>

#include "obj/debugfile.h"

/* The input at DIR/debug/.build-id/xx/rest.debug for its build-id id[n]. */
static void place_by_build_id(const uint8_t *id, size_t n, const uint8_t *data,
			      size_t size)
{
	char hex[129], name[PATH_MAX], path[PATH_MAX];

	for (size_t i = 0; i < n; i++)
		snprintf(hex + 2 * i, 3, "%02x", id[i]);
	snprintf(path, sizeof(path), "%s/debug/.build-id", fuzz_folder());
	mkdir(path, 0700);
	snprintf(name, sizeof(name), "debug/.build-id/%.2s", hex);
	snprintf(path, sizeof(path), "%s/%s", fuzz_folder(), name);
	mkdir(path, 0700);
	snprintf(name + strlen(name), sizeof(name) - strlen(name), "/%s.debug",
		 hex + 2);
	fuzz_write(name, data, size, path, sizeof(path));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char path[PATH_MAX], out[PATH_MAX], name[NAME_MAX + 1], other[PATH_MAX];
	uint8_t id[64];
	uint32_t crc;
	size_t n;
	Elf *e;

	elf_version(EV_CURRENT);
	fuzz_write("in", data, size, path, sizeof(path));
	if (!(e = elf_memory((char *)data, size)))
		return 0;
	if (elf_kind(e) == ELF_K_ELF) {
		if ((n = debugfile_build_id(e, id, sizeof(id))) >= 2)
			place_by_build_id(id, n, data, size);
		/* not over the input itself or the harness's folders */
		if (debugfile_link(e, name, sizeof(name), &crc) &&
		    strcmp(name, "in") != 0 && strcmp(name, "debug") != 0 &&
		    name[0] != '.')
			fuzz_write(name, data, size, other, sizeof(other));
		if (debugfile_find(e, path, out, sizeof(out)) &&
		    access(out, R_OK) != 0)
			abort();
	}
	elf_end(e);
	/* what the search left behind must not be found by the next input */
	fuzz_reset();
	return 0;
}
