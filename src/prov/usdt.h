/*
 * usdt.h -- the usdt provider: the <sys/sdt.h> probes of a process,
 * NAMEpid:module:function:name (DESIGN.md 3.11).
 *
 * Probes are made on demand when a description's provider field ends in a
 * process ID ("myprov123", "myprov$target" after macro expansion): every
 * .note.stapsdt of every module of that process (as the pid provider
 * finds them: prov/pid.h) becomes a probe.  The provider is the note's
 * provider with the pid appended, the module the file's last path
 * component, the function the symbol containing the site, and the name
 * the note's with each "__" shown as "-" (a description may use either
 * spelling).  Notes naming the same provider, function and name are one
 * probe with several sites.
 *
 * The note's argument strings are parsed here, by our own parser, into
 * struct usdt_arg (spec/spec.h): every x86-64 operand form gcc emits.
 */
#ifndef DSCOPE_USDT_H
#define DSCOPE_USDT_H

#include <stdbool.h>
#include <stdint.h>

#include "base/arena.h"
#include "prov/catalog.h"
#include "spec/spec.h"

/* What an argument's symbols mean at its site. */
struct usdt_arg_ctx {
	uint64_t pc;		/* the site's link-time address */
	bool pic;		/* ET_DYN: symbols move with the load bias */
	/* a symbol's link-time address; false if the file has no such one */
	bool (*sym)(void *arg, const char *name, uint64_t *addr);
	void *sym_arg;
};

/* One argument, "-4@8(%rdx,%rbx,4)" (NUL-terminated), into *a; -1 with a
 * reason in *why (a static string) if it is not one we can fetch. */
int usdt_parse_arg(const char *text, const struct usdt_arg_ctx *cx,
		   struct usdt_arg *a, const char **why);

/* A note's argument string, space-separated, into v[0..max): the number
 * parsed.  Parsing stops at the first bad argument (its reason in *why,
 * else *why is NULL); the ones before it are usable. */
int usdt_parse_args(const char *text, const struct usdt_arg_ctx *cx,
		    struct usdt_arg *v, int max, const char **why);

/* One .note.stapsdt entry, its addresses link-time and corrected for a
 * prelinked file by .stapsdt.base. */
struct usdt_note {
	const char *prov, *name;	/* as written: "myprov", "a__b" */
	const char *args;		/* "-4@%edi 8@16(%rsp)"; "" if none */
	uint64_t pc;			/* the site */
	uint64_t sem;			/* the semaphore; 0: none */
};

struct usdt_sym {
	const char *name;
	uint64_t addr;
};

struct usdt_file {
	struct usdt_note *notes;
	int nnotes;
	bool pic;			/* ET_DYN (PIE or shared library) */
	struct usdt_sym *syms;		/* defined symbols, by name */
	int nsyms;
};

/* The notes (and, when there are any, the symbols) of the ELF file at
 * path, allocated from a.  0, or -errno if it cannot be read as ELF. */
int usdt_file_read(struct arena *a, const char *path, struct usdt_file *uf);

/* A usdt_arg_ctx.sym over a struct usdt_file. */
bool usdt_file_sym(void *uf, const char *name, uint64_t *addr);

/* Add the probes pd may name, if its provider field ends in a pid;
 * returns the module field as those probes spell it (pid_module_resolve). */
const char *usdt_provide(struct catalog *cat, const struct probe_desc *pd);

/* args[] of a usdt probe: integers sized and signed as its first site's
 * note says ("-4@..." is int32_t). */
int usdt_load_args(struct catalog *cat, struct probe *p);

#endif /* DSCOPE_USDT_H */
