/*
 * rowspace.h -- the unwind rows map's space (rt/unwind.c): runs of
 * consecutive rows given to files and taken back when no process maps
 * them any more.
 *
 * The map is an array of budget rows.  A run is taken first fit from the
 * runs given back, else from the never used top.  A run given back is
 * not given out again at once: BPF programs that found the file's rows
 * before it was let go may still be walking them, so it waits in
 * quarantine until the next rowspace_recycle(), a sweep later (a second
 * or so, where a walk takes microseconds).  Runs given back next to each
 * other, or to the top, are merged, so that space freed file by file
 * makes room for a larger file later.
 */
#ifndef DSCOPE_ROWSPACE_H
#define DSCOPE_ROWSPACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct rows_run {
	uint32_t first, count;
};

struct rowspace {
	uint32_t budget;		/* rows in the map */
	uint32_t top;			/* rows from here on never used */
	struct rows_run *free;		/* given back and reusable, by first */
	size_t nfree, free_cap;
	struct rows_run *held;		/* given back since the last recycle */
	size_t nheld, held_cap;
};

/* count rows (count > 0) into *first; false if no run that long is free
 * (or the memory to note it is lacking). */
bool rowspace_take(struct rowspace *s, uint32_t count, uint32_t *first);

/* rows [first, first + count) given back: reusable after the next recycle.
 * -ENOMEM if it could not be noted (then the rows are lost to the
 * session, not reused early); 0 otherwise. */
int rowspace_give(struct rowspace *s, uint32_t first, uint32_t count);

/* What was given back before this call becomes reusable. */
void rowspace_recycle(struct rowspace *s);

/* Rows given out and not given back. */
uint32_t rowspace_in_use(const struct rowspace *s);

void rowspace_free(struct rowspace *s);

#endif /* DSCOPE_ROWSPACE_H */
