/*
 * uprobe.h -- attach the pid and usdt programs (DESIGN.md 3.5, 3.11).
 *
 * Each (program, file, process) gets one BPF_TRACE_UPROBE_MULTI link
 * carrying every probe's offset and cookie; when the kernel refuses the
 * link, each probe becomes a perf event of the uprobe PMU instead, its
 * cookie on its BPF link.  Every attachment is an fd kept in the set, so
 * detaching is closing, as for every other provider.
 */
#ifndef DSCOPE_UPROBE_H
#define DSCOPE_UPROBE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "rt/attach.h"
#include "spec/spec.h"

/* Fill spec.uprobe_map and attach the pid and usdt programs, usdt sites
 * with their semaphores (ref_ctr_offsets); on failure the fds
 * already made stay in set, for detach_all. */
int uprobe_attach(const struct spec *sp, struct attach_set *set, FILE *err,
		  const char *progname);

/* The uprobe PMU's perf event type, read from sysfs once; <0: none. */
int uprobe_pmu_type(void);

/* For attach.c: keep fd in set (closed by detach_all); slow: a perf
 * event that is slow to release, its program on a link kept apart. */
void attach_keep_fd(struct attach_set *set, int fd);
void attach_keep_slow_fd(struct attach_set *set, int fd);

#endif /* DSCOPE_UPROBE_H */
