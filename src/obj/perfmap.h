/*
 * perfmap.h -- names for JIT code, from /tmp/perf-PID.map.
 *
 * A JIT compiler (V8 with --perf-basic-prof, the JVM's perf-map-agent,
 * LuaJIT, QEMU's TCG...) writes one line per function it emits:
 *
 *	START SIZE name		START and SIZE in hex (a 0x is allowed);
 *				the name is the rest of the line, spaces
 *				and all
 *
 * and appends as it goes.  Code it frees may be reused for another
 * function, so a later line for a start address replaces an earlier
 * one.  The file is read whole each time it changed (size, mtime or
 * inode differ), and what was read is kept when it vanishes: a process
 * that removes its map as it ends still has names for the stacks it
 * left (DESIGN.md 3.10).
 *
 * /tmp is anyone's: the file is read only when it is a regular file
 * (never through a symlink) owned by the process's owner or root, as
 * perf insists, so one user cannot name another's code.  One larger than
 * 256 MiB is refused with a warning.
 */
#ifndef DSCOPE_PERFMAP_H
#define DSCOPE_PERFMAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>
#include <time.h>

struct perfmap_sym {
	uint64_t start, size;
	char *name;
};

struct perfmap {
	struct perfmap_sym *v;		/* by start address, one per start */
	size_t n;
	dev_t dev;			/* the file last read, to tell */
	ino_t ino;			/* whether it changed since */
	off_t size;
	struct timespec mtime;
};

/* Replace m's symbols with the lines of fp; lines that do not parse are
 * skipped. */
void perfmap_parse(struct perfmap *m, FILE *fp);

/* Read /tmp/perf-PID.map into m if it changed since it was last read;
 * false if m has no symbols after. */
bool perfmap_refresh(struct perfmap *m, uint32_t pid);

/* The function containing addr; NULL if none. */
const struct perfmap_sym *perfmap_find(const struct perfmap *m, uint64_t addr);

void perfmap_clear(struct perfmap *m);

#endif /* DSCOPE_PERFMAP_H */
