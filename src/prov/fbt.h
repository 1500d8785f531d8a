/*
 * fbt.h -- function boundary tracing: whether this kernel allows it.
 */
#ifndef DSCOPE_FBT_H
#define DSCOPE_FBT_H

/* NULL when fbt could work here; otherwise one sentence saying what the
 * kernel lacks and what to use instead.  Decided once, by trial. */
const char *fbt_unavailable(void);

#endif /* DSCOPE_FBT_H */
