/*
 * unwind.h -- the unwind tables of the traced processes' files, built in
 * userspace and handed to the BPF frame walk (DESIGN.md 3.9, spec.h).
 *
 * Tables are built lazily, for the processes a ustack() actually sees.
 * unwind_prepare() runs before the spec is loaded and sizes the maps
 * (the rows map holds the ustackrows budget).  unwind_fill() runs after
 * the load: a target's files get their rows before it runs, and a -p
 * target its process's table.  unwind_refresh(), at each switchrate
 * tick, builds the table of every process the BPF side asked for
 * (reading /proc/PID/maps, and the rows of files not seen before, shared
 * by every process mapping them); about once a second it drops the
 * tables of processes gone and lets go of the files no table maps any
 * more, their rows reused for files to come.
 * unwind_report() says, at the end, how many stacks followed frame
 * pointers in part because a table was not built yet or over budget.  A
 * file without .eh_frame, or one we cannot read, simply has no rows: the
 * walk follows frame pointers through it, and that is not reported.
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

/* The rows map's rows that n rows (n > 0) take with their page index
 * (spec.h's unwind_obj). */
size_t unwind_rows_needed(const struct unwind_row *rows, size_t n);

/* The page index of rows[0, n) (n > 0), into index[0, needed - n), for
 * rows the rows map holds from rows0 on. */
void unwind_index(const struct unwind_row *rows, size_t n, uint32_t rows0,
		  struct unwind_row *index);

/* Size spec.unwind_*_map for budget rows and make the (empty) tables;
 * NULL tables when the spec has no unwind maps.  0 or -ENOMEM. */
int unwind_prepare(struct spec *sp, uint64_t budget, struct unwind_tables **t);

/* After the load: the rows of target pid's files (exec: the -c command,
 * see usym.h), and a running target's table.  0 or -errno, said on err. */
int unwind_fill(const struct spec *sp, struct unwind_tables *t, long pid,
		const char *exec, FILE *err, const char *progname);

/* The tables the BPF side asked for since the last call; 0 or -ENOMEM. */
int unwind_refresh(struct unwind_tables *t);

/* One sentence per reason stacks were short of their tables, if any. */
void unwind_report(const struct unwind_tables *t, FILE *err, const char *progname);

void unwind_tables_free(struct unwind_tables *t);

#endif /* DSCOPE_UNWIND_H */
