/*
 * procstop.c -- run the stopped -c command to its evaltime (procstop.h).
 *
 * Only this process is touched, through ptrace, which dscope already is
 * (cmd/main.c seized it to stop it at its exec).  A signal that arrives
 * on the way is passed on, as if nothing watched; a trap that is not the
 * breakpoint's is the command's own and is passed on too.
 */
#include "rt/procstop.h"

#include <elf.h>
#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/user.h>
#include <sys/wait.h>

#include "obj/usym.h"

/* The process's entry point (AT_ENTRY of its auxiliary vector), 0 if none. */
static uint64_t entry_point(pid_t pid)
{
	char path[64];
	uint64_t pair[2], entry = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/auxv", (int)pid);
	if (!(f = fopen(path, "r")))
		return 0;
	while (fread(pair, sizeof(pair), 1, f) == 1 && pair[0] != AT_NULL)
		if (pair[0] == AT_ENTRY)
			entry = pair[1];
	fclose(f);
	return entry;
}

/* Where the function name is in pid's memory now: its symbol in a mapped
 * file, moved by where that file's page is mapped.  0 if none maps it. */
static uint64_t symbol_address(pid_t pid, const char *name)
{
	char path[64], line[4096];
	uint64_t addr = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/maps", (int)pid);
	if (!(f = fopen(path, "r")))
		return 0;
	while (!addr && fgets(line, sizeof(line), f)) {
		uint64_t start, end, pgoff, off;
		const char *file;
		const struct elf_file *ef;

		line[strcspn(line, "\n")] = '\0';
		if (!usym_maps_line(line, &start, &end, &pgoff, &file) ||
		    !(ef = elf_file_get(file)))
			continue;
		for (size_t i = 0; i < ef->nsyms; i++) {
			if (strcmp(ef->syms[i].name, name) != 0 ||
			    !elf_file_offset(ef, ef->syms[i].addr, &off))
				continue;
			if (off >= pgoff && off < pgoff + (end - start))
				addr = start + (off - pgoff);
			break;
		}
	}
	fclose(f);
	return addr;
}

/*
 * Run pid to addr with a breakpoint there, and leave it stopped at addr
 * with the instruction restored.  1 if it got there, 0 if no breakpoint
 * could be placed (it has not moved), -1 if it died on the way.
 */
static int run_to(pid_t pid, uint64_t addr, struct user_regs_struct *regs)
{
	int status, sig = 0;
	long word;

	errno = 0;
	word = ptrace(PTRACE_PEEKTEXT, pid, (void *)addr, 0);
	if (errno || ptrace(PTRACE_POKETEXT, pid, (void *)addr,
			    (void *)((word & ~0xffL) | 0xcc)) < 0)
		return 0;
	for (;;) {
		if (ptrace(PTRACE_CONT, pid, 0, (void *)(long)sig) < 0 ||
		    waitpid(pid, &status, 0) != pid || !WIFSTOPPED(status))
			return -1;
		sig = status >> 16 ? 0 : WSTOPSIG(status);
		if (sig != SIGTRAP ||
		    ptrace(PTRACE_GETREGS, pid, 0, regs) < 0 ||
		    regs->rip - 1 != addr)
			continue;
		ptrace(PTRACE_POKETEXT, pid, (void *)addr, (void *)word);
		regs->rip = addr;
		ptrace(PTRACE_SETREGS, pid, 0, regs);
		return 1;
	}
}

int procstop_advance(pid_t pid, enum evaltime when)
{
	struct user_regs_struct regs;
	uint64_t entry, start_main, main_addr;
	int r;

	if (when == EVALTIME_EXEC || !(entry = entry_point(pid)))
		return 0;
	if ((r = run_to(pid, entry, &regs)) <= 0 || when == EVALTIME_PREINIT)
		return r < 0 ? -1 : 0;
	/* at the entry point the libraries are mapped: main() is the first
	 * argument of __libc_start_main(), or else the symbol main */
	if ((start_main = symbol_address(pid, "__libc_start_main"))) {
		if ((r = run_to(pid, start_main, &regs)) <= 0)
			return r < 0 ? -1 : 0;
		main_addr = regs.rdi;
	} else {
		main_addr = symbol_address(pid, "main");
	}
	if (main_addr && run_to(pid, main_addr, &regs) < 0)
		return -1;
	return 0;
}
