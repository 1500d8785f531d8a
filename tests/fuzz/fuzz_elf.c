/*
 * fuzz_elf.c -- libFuzzer over an ELF file as dscope reads the files of
 * the processes it traces (tests/fuzz/README.md).
 *
 * The input is the file.  elf_file_read() takes its program headers,
 * dynamic section and symbols (obj/usym.c, with a debug-file lookup when
 * it has no .symtab: obj/debugfile.c), the symbols are looked up as a
 * stack is named, and unwind_file_rows() reads its .eh_frame again from
 * the file and places the rows (rt/unwind.c, obj/ehframe.c).  For every
 * input: no crash, no leak, no allocation beyond what the file's bytes
 * justify (-rss_limit_mb and -malloc_limit_mb catch a blind one).
 */
#include "fuzz_file.h"	/* first: it asks for _GNU_SOURCE */

#include <stdint.h>
#include <stdlib.h>

#include "rt/unwind.h"
#include "obj/usym.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char path[128];
	struct elf_file *f;
	struct unwind_row *rows = NULL;
	size_t n = 0;
	uint64_t off, vaddr;

	fuzz_write("in", data, size, path, sizeof(path));
	if (!(f = elf_file_read(path)))
		return 0;
	for (size_t i = 0; i < f->nsyms; i++) {
		const struct elf_sym *s = f->syms + i;

		elf_file_sym(f, s->addr);
		elf_file_sym(f, s->addr + s->size);
		if (elf_file_offset(f, s->addr, &off))
			elf_file_vaddr(f, off, &vaddr);
	}
	if (unwind_file_rows(f, &rows, &n) == 0 && n)
		unwind_row_at(rows, n, rows[n / 2].pc);
	free(rows);
	elf_file_free(f);
	return 0;
}
