/*
 * uprobe_multi.h -- a uprobe_multi link (6.6+), made by the bpf() syscall
 * itself: libbpf 1.1.2 predates it.  Used to attach (rt/uprobe.c) and to
 * find out whether the kernel has it (kcaps.c).
 */
#ifndef DSCOPE_UPROBE_MULTI_H
#define DSCOPE_UPROBE_MULTI_H

#include <stdbool.h>
#include <stdint.h>

/* A BPF_TRACE_UPROBE_MULTI link on offs[0..n) of path (ref_ctrs and
 * cookies may be NULL): the link's fd, or -errno. */
int uprobe_link_multi(int prog_fd, const char *path, const uint64_t *offs,
		      const uint64_t *ref_ctrs, const uint64_t *cookies,
		      uint32_t n, bool ret, int pid);

#endif /* DSCOPE_UPROBE_MULTI_H */
