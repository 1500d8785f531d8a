/*
 * usym.h -- user-space symbols: ELF files and the processes that map them.
 *
 * An ELF file is read once (libelf), by path, and kept while it is used
 * (usym_sweep): its function symbols sorted by address, its PT_LOAD segments
 * (to turn a virtual address into the file offset a uprobe names, and
 * back), its DT_NEEDED libraries and its run path.  The pid provider
 * (prov/pid.c) enumerates functions from it; the consumer names stack
 * frames with it.
 *
 * A process's mappings are read from /proc/PID/maps when the process is
 * first noted (usym_note_pid) and cached with the files they name, so a
 * stack printed after the process exited still has names (DESIGN.md
 * 3.10): those of the targets, and of the last few others to go
 * (usym_sweep).  An address in no file-backed mapping is named from the
 * process's /tmp/perf-PID.map, where a JIT names its code (obj/perfmap.h),
 * as module "perf-PID.map".  A pid whose maps were never read, or an
 * address nothing names, prints as hex, as DTrace prints what it cannot
 * name.
 *
 * Ownership.  These tables are the process's, not a session's: the files
 * a process maps are the same whoever asks, and a stack key printed by the
 * metrics thread must find what the consumer noted.  They are not locked
 * here: every caller runs before the metrics thread starts (compiling,
 * loading) or under the session's lock (driver/session.c's
 * ds->lock: the consumer's poll, the metrics thread's render, a noted
 * process), and names handed out stay valid until the next usym_sweep,
 * which only the consumer, under that lock, calls.  So one session per
 * process, as dtrace(1) and dscope(1) run; a library user with two would
 * need this state moved into the session (issue 29, not done).
 */
#ifndef DSCOPE_USYM_H
#define DSCOPE_USYM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct elf_sym {
	const char *name;	/* without a version ("@GLIBC_2.2.5") */
	uint64_t addr, size;	/* link-time virtual address */
	uint8_t rank;		/* of aliases, the higher names it: see
				 * usym.c's sym_rank */
};

struct elf_seg {
	uint64_t vaddr, memsz, offset;	/* a PT_LOAD program header */
};

struct elf_file {
	char *path;
	const char *base;		/* the module name: the path's last part */
	struct elf_sym *syms;		/* STT_FUNC, defined, by address */
	size_t nsyms;
	struct elf_seg *segs;
	size_t nsegs;
	char **needed;			/* DT_NEEDED names */
	size_t nneeded;
	char *runpath;			/* DT_RUNPATH or DT_RPATH; NULL if none */
	char *interp;			/* PT_INTERP; NULL if none */
	char *debug;			/* the separate debug file syms came
					 * from (obj/debugfile.h); NULL if none */
	uint64_t size;			/* of the file when it was read */
};

/*
 * Open an ELF file a traced process named, for reading: -1 (errno set)
 * unless it is a regular file.  Paths come from the process (its maps,
 * DT_NEEDED, a debug link), and a FIFO there would block dscope in
 * open() or read() forever, a device read without end.
 */
int elf_open(const char *path);

/*
 * Damage found in a file a traced process controls (a symbol table past
 * the file's end, a malformed .eh_frame or stapsdt note): one sentence
 * on stderr, "dscope: warning: PATH: ...", once per file and kind of
 * damage (fmt), and dscope carries on with what it could read.
 */
void usym_warn(const char *path, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* The file at path, read on first use; NULL if it is not a readable ELF
 * file.  Owned by the cache, and kept for the session. */
const struct elf_file *elf_file_get(const char *path);

/* The same, valid only until the next usym_sweep(), which lets it go if
 * no process kept here maps it (rt/unwind.c reads a file's rows so). */
const struct elf_file *elf_file_peek(const char *path);

/* The same, read now and not kept: the caller frees it with
 * elf_file_free (the fuzzer reads a file per input). */
struct elf_file *elf_file_read(const char *path);
void elf_file_free(struct elf_file *f);

/* Link-time vaddr <-> file offset through the PT_LOAD segments. */
bool elf_file_offset(const struct elf_file *f, uint64_t vaddr, uint64_t *off);
bool elf_file_vaddr(const struct elf_file *f, uint64_t off, uint64_t *vaddr);

/* The function containing vaddr (the last one at or below it when sizes
 * say nothing); NULL if none.  Of aliases, a global name over a local
 * one (malloc, not __GI___libc_malloc). */
const struct elf_sym *elf_file_sym(const struct elf_file *f, uint64_t vaddr);

/*
 * The ELF files a process is made of: with exec (the -c command, not yet
 * exec'd), the executable, its interpreter and the closure of its
 * DT_NEEDED libraries, found as the dynamic linker finds them; without,
 * every file /proc/pid/maps names now.  Up to max files into out; the
 * count.  (prov/pid.c's modules and rt/unwind.c's tables both come from here.)
 */
size_t usym_object_files(long pid, const char *exec, const struct elf_file **out,
			 size_t max);

/* One line of /proc/pid/maps, "start-end perms pgoff dev inode path":
 * false unless it parses, is not empty and names a path (starting with
 * '/'); path points into line. */
bool usym_maps_line(const char *line, uint64_t *start, uint64_t *end,
		    uint64_t *pgoff, const char **path);

/* Read /proc/pid/maps now, unless it was read already; false if the
 * process is gone or unreadable. */
bool usym_note_pid(uint32_t pid);
/* Forget what was read for pid: the next note reads the maps again
 * (libraries loaded since). */
void usym_forget_pid(uint32_t pid);

/* Keep what was read for pid (a target's) after it is gone, for the
 * session, however many others come and go. */
void usym_keep_pid(uint32_t pid);

/* Let go of what the processes gone since the last sweep held, but for
 * the last few to go (usym.c), and of the files no process kept maps. */
void usym_sweep(void);

/* n numbers from /proc/pid/stat from field (1-based, as proc(5) numbers
 * them; field > 2) on into out; false if the process is gone. */
bool usym_proc_stat(uint32_t pid, int field, int n, uint64_t *out);

/* addr in process pid -> module, symbol (NULL: module only) and the
 * symbol's run-time address; false when unknown.  An address in no file
 * reads the perf map again if it changed. */
bool usym_lookup(uint32_t pid, uint64_t addr, const char **mod,
		 const char **sym, uint64_t *symaddr);

/* A struct fmt_sym_ops ulookup (ctx unused): notes pid first, so a live
 * process is read on its first lookup. */
bool usym_fmt_lookup(void *ctx, uint32_t pid, uint64_t addr, const char **mod,
		     const char **sym, uint64_t *symaddr);

#endif /* DSCOPE_USYM_H */
