/*
 * ehframe.h -- an ELF object's .eh_frame, reduced to unwind rows.
 *
 * .eh_frame holds, for each function, a small program (the DWARF call
 * frame instructions of its FDE, after those of its CIE) that says, for
 * every instruction address, how to find the caller's frame.  Running
 * those programs once, in userspace, turns them into a sorted table a BPF
 * program can search: from pc on, the canonical frame address (CFA) is
 * rsp or rbp plus a constant, the return address is at CFA - 8, and the
 * caller's rbp is unchanged or saved at CFA + n (spec.h, struct
 * unwind_row).  That is everything an x86-64 frame walk needs; rules for
 * other registers are read and dropped.
 */
#ifndef DSCOPE_EHFRAME_H
#define DSCOPE_EHFRAME_H

#include <stddef.h>
#include <stdint.h>

#include "spec/spec.h"

/* A row at a link-time address, before it is placed in a file. */
struct eh_row {
	uint64_t pc;
	struct unwind_row r;	/* r.pc unused */
};

/*
 * The rows of an .eh_frame section of size bytes loaded at link-time
 * address vaddr, sorted by pc: each holds until the next, and the end of
 * each function is marked by a UW_NONE row unless another function
 * starts there.  Consecutive rows saying the same are merged.  *rows is
 * malloc'd (the caller frees it).  0, or -EINVAL when the section is
 * malformed: then *bad (if not NULL) is the offset of the damaged entry,
 * and the rows of the entries before it are kept.
 */
int ehframe_rows(const uint8_t *data, size_t size, uint64_t vaddr,
		 struct eh_row **rows, size_t *n, size_t *bad);

#endif /* DSCOPE_EHFRAME_H */
