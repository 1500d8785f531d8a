/*
 * flamegraph.h -- stacks merged into a tree and drawn as an SVG flame
 * graph (oformat=svg).
 *
 * A stack is added root first, with a value (an aggregation's, so widths
 * are counts, nanoseconds, bytes -- whatever the script summed).  Equal
 * frames under equal parents merge; a frame's width is the sum of the
 * values of the stacks through it.  The SVG is one self-contained file:
 * its script (hover details, click to zoom, search) is inside it and it
 * loads nothing.  "#z=NAME" in the URL zooms on the first frame called
 * NAME and "#s=REGEX" searches, so that a link can show one view.
 */
#ifndef DSCOPE_FLAMEGRAPH_H
#define DSCOPE_FLAMEGRAPH_H

#include <stdint.h>
#include <stdio.h>

enum fg_kind {
	FG_AGG,		/* the aggregation a stack came from (several: a root each) */
	FG_KEY,		/* a key other than a stack (pid, execname...) */
	FG_USER,	/* a ustack() frame */
	FG_KERNEL,	/* a stack() frame */
};

struct fg_frame {
	const char *name;
	enum fg_kind kind;
};

struct flamegraph;

struct flamegraph *fg_new(void);
void fg_free(struct flamegraph *fg);
/* Add a stack of n frames, root first; values <= 0 add nothing. */
void fg_add(struct flamegraph *fg, const struct fg_frame *frames, int n,
	    int64_t value);
/* Write the SVG; unit names the values in tooltips ("count", "sum"). */
void fg_write(struct flamegraph *fg, FILE *out, const char *title,
	      const char *unit);

#endif /* DSCOPE_FLAMEGRAPH_H */
