/*
 * tracefs.h -- the kernel's tracing filesystem, read-only: where it is, which
 * events a group has, and what an event's record holds.
 *
 * dscope attaches through file descriptors (BPF links, perf events), never by
 * writing tracefs control files, so nothing is left behind if it dies.  It
 * reads tracefs for facts only: the events that exist and their formats.
 */
#ifndef DSCOPE_TRACEFS_H
#define DSCOPE_TRACEFS_H

#include <stdbool.h>

#include "base/arena.h"

struct tracefs_field {
	const char *type;	/* as the kernel prints it: "unsigned int", "char *", "char[16]" */
	const char *name;	/* "fd" */
	int offset, size;	/* in bytes, within the tracepoint record */
	bool is_signed;
};

/* The tracefs mount point ("/sys/kernel/tracing"), mounting tracefs there
 * when nothing is; NULL (errno set) when there is none and mounting failed.
 * The answer is looked up once per process. */
const char *tracefs_root(void);

/* NULL if tracefs's events can be read; else the sentence saying what
 * reading them needs (tracefs is root's alone, mode 0700, on most
 * systems: a non-root dscope needs CAP_DAC_READ_SEARCH to see the
 * kernel's tracepoints), or that lockdown=confidentiality withholds
 * them (LOCKDOWN_TRACEFS). */
const char *tracefs_unreadable(void);

/* The events of a group ("syscalls"), sorted bytewise, in *names; returns
 * how many, or -errno (-ENOENT: no such group, or no tracefs). */
int tracefs_group_events(struct arena *a, const char *group, const char ***names);

/* Whether the kernel has tracepoint group:event (one access(), no BTF). */
bool tracefs_event_exists(const char *group, const char *event);

/* The fields of events/<group>/<event>/format after the common_* header, in
 * record order; returns how many, or -errno. */
int tracefs_event_fields(struct arena *a, const char *group, const char *event,
			 struct tracefs_field **fields);

/* One "field:TYPE NAME;\toffset:N;\tsize:N;\tsigned:N;" line (the text after
 * the tab); 0, or -EINVAL when the line is not a field.  Exposed for tests. */
int tracefs_parse_field(struct arena *a, const char *line, struct tracefs_field *f);

#endif /* DSCOPE_TRACEFS_H */
