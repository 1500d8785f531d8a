/*
 * unwind.h -- the unwind tables of the traced processes' files, built in
 * userspace and handed to the BPF frame walk (DESIGN.md 3.9, spec.h).
 *
 * unwind_prepare() runs before the spec is loaded: it reads the .eh_frame
 * of every ELF file the target is made of (usym_object_files), reduces it
 * to rows placed at file offsets, and sizes the two unwind maps to fit.
 * unwind_fill() runs after the load and writes the tables into the maps;
 * it frees them.  A file without .eh_frame, or one we cannot read, simply
 * has no rows: the walk follows frame pointers through it.
 */
#ifndef DSCOPE_UNWIND_H
#define DSCOPE_UNWIND_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "spec/spec.h"

struct unwind_tables;

struct elf_file;

/* The rows of the ELF file f (read again from f->path), pc as file
 * offsets, sorted (malloc'd; the caller frees *rows).  0, or -errno. */
int unwind_file_rows(const struct elf_file *f, struct unwind_row **rows, size_t *n);

/* The row covering file offset off, as the BPF search finds it: the last
 * row at or below off; NULL if none. */
const struct unwind_row *unwind_row_at(const struct unwind_row *rows, size_t n,
				       uint32_t off);

/* Build the tables of process pid (exec: the -c command, see usym.h) and
 * size spec.unwind_*_map; NULL tables when the spec has no unwind maps.
 * 0 or -ENOMEM. */
int unwind_prepare(struct spec *sp, long pid, const char *exec,
		   struct unwind_tables **t);

/* Write the tables into the loaded maps and free them.  0 or -errno, with
 * a message naming the map. */
int unwind_fill(const struct spec *sp, struct unwind_tables *t, FILE *err,
		const char *progname);

void unwind_tables_free(struct unwind_tables *t);

#endif /* DSCOPE_UNWIND_H */
