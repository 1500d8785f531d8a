/*
 * load.h -- maps and programs into the kernel.
 *
 * load_spec() creates every map of a spec, patches map references in the
 * instructions with the new fds, and loads each program.  On a verifier
 * rejection it prints the verifier's log: the log is the only honest
 * account of why, and hiding it makes the failure undebuggable.
 * unload_spec() closes every fd; closing is all the kernel needs to free
 * them (nothing is pinned, nothing lives in tracefs).
 */
#ifndef DSCOPE_LOAD_H
#define DSCOPE_LOAD_H

#include <stdbool.h>
#include <stdio.h>

#include "spec/spec.h"

int load_spec(struct spec *sp, FILE *err, const char *progname);
/* A copy of an fentry/fexit program p (which load_spec leaves unloaded)
 * for the kernel function of BTF id btf_id, the probe of uprobes[] index
 * site where the kernel has no cookies (p->site_insn): its fd, or
 * -errno. */
int load_for_function(const struct spec_prog *p, uint32_t btf_id, int site, FILE *err,
		      const char *progname);
/* Whether load_spec loaded p for multi links (uprobe_multi,
 * kprobe_multi), which the kernel has. */
bool load_is_multi(const struct spec_prog *p);
/* A copy of p for perf events (no attach type) serving the probe of
 * uprobes[] index site alone, where the kernel has no attach cookies
 * (p->site_insn >= 0); p's own fd when it has one site only: the fd, or
 * -errno.  A copy is the caller's to close. */
int load_for_site(const struct spec_prog *p, int site, FILE *err, const char *progname);
void unload_spec(struct spec *sp);


#endif /* DSCOPE_LOAD_H */
