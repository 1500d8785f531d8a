/*
 * lockdown.h -- the kernel's lockdown mode and the capabilities dscope
 * runs with: what a production host may withhold.
 *
 * Under lockdown (Secure Boot distributions default to integrity) the
 * kernel leaves helpers out of what BPF programs may call, so a program
 * calling one fails verification with "unknown func".  dscope looks
 * before loading and says which action the mode forbids, in one
 * sentence, rather than showing that verifier log:
 *   integrity        bpf_probe_write_user: copyout(), copyoutstr()
 *   confidentiality  and the reads of kernel memory (bpf_probe_read_kernel
 *                    and its string and compat forms): a kernel pointer
 *                    followed, a kernel variable, another task's fields
 *                    (sched:::on-cpu's pid: the incoming task's), and
 *                    what the code generator copies so itself (strings
 *                    in scratch, user stacks' walk); a system call's
 *                    arguments and copyinstr() are read without it
 * (the kernel's LOCKDOWN_BPF_WRITE_USER and LOCKDOWN_BPF_READ_KERNEL,
 * security/lockdown and kernel/trace/bpf_trace.c).  Everything else runs.
 */
#ifndef DSCOPE_LOCKDOWN_H
#define DSCOPE_LOCKDOWN_H

#include <linux/bpf.h>
#include <stdbool.h>
#include <stdio.h>

enum lockdown {		/* ORDER: each forbids what the one before does */
	LOCKDOWN_NONE,
	LOCKDOWN_INTEGRITY,
	LOCKDOWN_CONFIDENTIALITY,
};

/*
 * The mode, from /sys/kernel/security/lockdown (its word in brackets),
 * read once; securityfs is mounted for the look where it is not, in a
 * mount namespace of a child's; none where there is no such file (no
 * lockdown LSM).  DSCOPE_LOCKDOWN=integrity|confidentiality pretends, a test
 * aid: a host's lockdown can only be raised, never lowered, until reboot.
 */
enum lockdown lockdown_mode(void);

/* What mode m forbids among the n instructions' helper calls, as the
 * start of a sentence ("the program reads kernel memory ..."); NULL:
 * nothing. */
const char *lockdown_refuses(const struct bpf_insn *insns, int n,
			     enum lockdown m);

const char *lockdown_name(enum lockdown m);

/* Whether this process holds capability bit (linux/capability.h) in its
 * effective set; false where /proc/self/status does not say. */
bool lockdown_has_cap(int bit);

/* For -vV: the mode, and the capabilities this process holds that
 * tracing uses (CapEff of /proc/self/status). */
void lockdown_print(FILE *out);

#endif /* DSCOPE_LOCKDOWN_H */
