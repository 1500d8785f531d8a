/*
 * syscalls.h -- the syscall provider: syscall:vmlinux:NAME:entry and :return
 * for every system call this kernel has, named as strace names them.
 */
#ifndef DSCOPE_SYSCALLS_H
#define DSCOPE_SYSCALLS_H

#include "catalog.h"

int syscall_nr(const char *name);	/* x86-64 number of "read" (0); -1 if none */
const char *syscall_name(int nr);	/* "read" for 0; NULL if no such number */

/* Adds the probes of every syscall this kernel implements. */
void syscalls_populate(struct catalog *cat);

/* Reads the argument types of a syscall probe from its tracefs format:
 * the declared parameters at entry, "long ret" at return.  Returns nargs,
 * -1 when unknown (no tracefs). */
int syscalls_load_args(struct catalog *cat, struct probe *p);

/* The arguments of a syscall's entry probe that are strings in user
 * memory, by index into idx[0..max): how many (0 when tracefs cannot
 * say). */
int syscalls_string_args(struct arena *a, const struct probe *p, int *idx, int max);

#endif /* DSCOPE_SYSCALLS_H */
