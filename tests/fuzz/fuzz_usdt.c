/*
 * fuzz_usdt.c -- libFuzzer over an ELF file's .note.stapsdt notes and
 * their argument strings (tests/fuzz/README.md).
 *
 * The input is the file.  usdt_file_read() reads its notes and symbols
 * (prov/usdt.c), and each note's arguments are parsed as a probe site's
 * are, symbols looked up in the file.  For every input: no crash, no
 * leak, every argument count within what was asked.
 */
#include "fuzz_file.h"	/* first: it asks for _GNU_SOURCE */

#include <stdint.h>
#include <stdlib.h>

#include "prov/usdt.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char path[128];
	struct arena a = { 0 };
	struct usdt_file uf;

	fuzz_write("in", data, size, path, sizeof(path));
	if (usdt_file_read(&a, path, &uf) == 0)
		for (int i = 0; i < uf.nnotes; i++) {
			struct usdt_arg_ctx cx = { uf.notes[i].pc, uf.pic,
						   usdt_file_sym, &uf };
			struct usdt_arg v[USDT_ARGS_MAX];
			const char *why;
			int n = usdt_parse_args(uf.notes[i].args, &cx, v,
						USDT_ARGS_MAX, &why);

			if (n < 0 || n > USDT_ARGS_MAX)
				abort();
		}
	arena_free(&a);
	return 0;
}
