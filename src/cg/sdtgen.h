/*
 * sdtgen.h -- dscope -h and -G: what an application's build needs to
 * carry USDT probes, generated from the provider definitions of D
 * programs.
 *
 *   provider myserv { probe request__start(int, char *); };
 *
 * becomes, with -h, a C header over SystemTap's <sys/sdt.h> (the layout
 * of SystemTap's dtrace -h, which Linux projects' "configure
 * --enable-dtrace" already expect): MYSERV_REQUEST_START(a, b) places a
 * probe, an ELF note in .note.stapsdt naming provider "myserv", probe
 * "request__start" and where its two arguments live;
 * MYSERV_REQUEST_START_ENABLED() reads the probe's is-enabled semaphore,
 * myserv_request__start_semaphore, which a tracer increments while it
 * traces the probe.  With -G, an ELF relocatable object that defines those
 * semaphores, written with libelf: no C compiler runs at build time.
 *
 * The object's semaphores are 2-byte zeroed slots in an allocated,
 * writable PROGBITS section ".probes": the kernel counts uprobe users in
 * them (a uprobe's ref_ctr_offset is a file offset, so the slot must be
 * in the file, not in .bss).  Each is hidden, so every executable and
 * shared library has its own, as each has its own notes; and weak, so
 * linking two -G objects of the same provider into one module (two
 * static libraries built from one .d file) merges them instead of failing
 * on a duplicate symbol.  SystemTap's object is the same but for weak.
 *
 * Errors: sdtgen_add() stops at the first bad definition with its DTrace
 * tag in *d; sdtgen_object() fails with a sentence in err.
 */
#ifndef DSCOPE_SDTGEN_H
#define DSCOPE_SDTGEN_H

#include <stdio.h>

#include "base/arena.h"
#include "front/ast.h"
#include "base/diag.h"

/* The most arguments <sys/sdt.h> gives a probe (STAP_PROBE12). */
#define SDT_MAX_ARGS 12

/* One probe to declare: its provider's name and its declaration. */
struct sdt_probe {
	const char *provider;
	const struct provider_probe *decl;
};

/* Every probe of every provider definition added, in source order. */
struct sdt_set {
	struct arena *a;
	struct sdt_probe *probes;
	int nprobes, cap;
	int nproviders;		/* definitions seen, some maybe empty */
};

/* The ELF an object must match to link: the application's objects'. */
struct sdt_target {
	int elfclass;		/* ELFCLASS32 or ELFCLASS64 */
	int data;		/* ELFDATA2LSB or ELFDATA2MSB */
	int machine;		/* EM_X86_64, ... */
	unsigned flags;		/* e_flags: the ABI variant, copied */
};

/* Add the provider definitions of prog, checked as DTrace checks them
 * (a name ending in a digit, a probe declared twice, more arguments
 * than <sys/sdt.h> carries).  0, or -1 with *d filled. */
int sdtgen_add(struct sdt_set *set, const struct program *prog,
	       struct diag *d);

/* -h: the header, name (its file name) giving the include guard. */
void sdtgen_header(const struct sdt_set *set, FILE *out, const char *name);

/* The target of the first readable ELF object among objs, else the host
 * with bits (32, 64, or 0 for the host's own) as its class.  0, or -1 with
 * a sentence in err when neither gives a machine. */
int sdtgen_target(struct sdt_target *t, int bits, int nobjs,
		  char *const *objs, char *err, size_t errlen);

/* -G: the semaphores' object at path.  0, or -1 with a sentence in err
 * and no file left behind. */
int sdtgen_object(const struct sdt_set *set, const struct sdt_target *t,
		  const char *path, char *err, size_t errlen);

#endif /* DSCOPE_SDTGEN_H */
