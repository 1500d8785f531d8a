/*
 * procstop.h -- bring the -c command, stopped by ptrace at its exec, to
 * where -x evaltime says its probes take effect (DTrace's dt_proc.c).
 *
 * DTrace creates the command stopped, compiles, and enables the probes
 * while it is stopped at one of four places: at its exec (exec), at its
 * entry point once the dynamic linker has mapped its libraries (preinit),
 * or at main() (postinit and main, which dtrace-utils makes the same: the
 * address main() has is the first argument _start passes to
 * __libc_start_main()).  What the command does before that place is not
 * traced.  A breakpoint (int3) is placed there, the command run to it and
 * the instruction put back; where no breakpoint can be placed (no entry
 * point, no __libc_start_main or main symbol), the command stays where it
 * is, as dtrace-utils then acts as if evaltime were exec or preinit.
 */
#ifndef DSCOPE_PROCSTOP_H
#define DSCOPE_PROCSTOP_H

#include <sys/types.h>

#include "spec/options.h"

/* pid is ptrace-stopped at its exec; on return it is stopped where when
 * says (or earlier, see above): 0; -1 if it died on the way. */
int procstop_advance(pid_t pid, enum evaltime when);

#endif
