/*
 * pid.c -- the pid provider.  See pid.h.
 *
 * Which files make up a process.  A running process (-p, or any pidNNN)
 * is what /proc/PID/maps says: the executable and every library mapped
 * now.  The -c command is different: it is created waiting on a pipe,
 * before it has even exec'd, and is released only after the probes are
 * attached, so at compile time it has no maps of its own.  For it, the
 * modules are the command's executable, its interpreter and the closure
 * of its DT_NEEDED libraries, found as the dynamic linker finds them
 * (DT_RUNPATH/DT_RPATH with $ORIGIN, LD_LIBRARY_PATH, the multiarch and
 * classic system directories; /etc/ld.so.cache is not read) -- the same
 * files the unwinder takes tables of, so both ask usym_object_files().  That is
 * enough because uprobes name a file and an offset, not an address: a
 * probe placed on libc.so.6 before the process maps libc fires once it
 * does.  Libraries opened later with dlopen() are not seen.
 *
 * A probe's uprobe is (file, offset): the symbol's link-time address
 * turned into a file offset through the PT_LOAD segments, so PIE and
 * non-PIE executables and libraries are all the same to it.
 *
 * Each (pid, file) is enumerated once per catalog, however many
 * descriptions name it.
 *
 * Offset probes (pidNNN:mod:func:1f, the name an offset in lowercase
 * hex from the function's start) are made only when a description's
 * name can name one -- empty, a glob, or hex digits -- and then for each
 * function its function field matches, once per (pid, file, function):
 * a probe for every instruction, and the name then picks.  A uprobe
 * written into the middle of an instruction, or into data, changes what
 * the traced program does, so an offset probe exists only where
 *	- the function's bytes, from its symbol's start to its st_size,
 *	  decode as instructions end to end (rt/x86insn.h; a function with
 *	  bytes the decoder refuses gets no offset probes at all),
 *	- no direct branch in it lands inside one of those instructions
 *	  (glibc jumps over a lock prefix: then nothing is certain), and
 *	- the instruction is reached from the entry by falling through and
 *	  by direct branches.  Code reached only through an indirect jump (a
 *	  switch's jump table) gets no probe: from the bytes alone it cannot
 *	  be told from data placed after a ret, which hand-written assembly
 *	  does (OpenSSL keeps strings there), and a breakpoint in data
 *	  corrupts what the program reads.
 * When a named offset has no probe, the catalog's hint says which of
 * these it failed.
 */
#include "prov/pid.h"

#include <ctype.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "obj/usym.h"
#include "obj/x86insn.h"

/* Provider field "pid123" -> 123; 0 if it is not one. */
static long provider_pid(const char *prov)
{
	char *end;
	long pid;

	if (!prov || strncmp(prov, "pid", 3) != 0 || !isdigit((unsigned char)prov[3]))
		return 0;
	pid = strtol(prov + 3, &end, 10);
	return *end || pid <= 0 || pid > INT_MAX ? 0 : pid;
}

static void add_probes(struct catalog *cat, long pid, const char *prov,
		       const struct pid_module *m)
{
	static const char *const names[] = { "entry", "return" };

	for (size_t i = 0; i < m->f->nsyms; i++) {
		const struct elf_sym *s = &m->f->syms[i];
		uint64_t off;

		if (!elf_file_offset(m->f, s->addr, &off))
			continue;
		for (int k = 0; k < 2; k++)
			catalog_add(cat, &(struct probe){
				.kind = PROV_PID, .prov = prov, .mod = m->f->base,
				.func = s->name, .name = names[k], .sysnr = -1,
				.upid = (int)pid, .upath = m->f->path,
				.uoffset = off, .uexe = m->is_exe,
				.urank = s->rank });
	}
}

/* A process has few hundred files at most; more are not looked at. */
#define PID_FILES_MAX 1024

struct pid_module *pid_modules(struct catalog *cat, long pid, int *n)
{
	struct arena *a = catalog_arena(cat);
	const char *exe = catalog_target_exec(cat, pid);
	const struct elf_file **files = arena_alloc(a, sizeof(*files) * PID_FILES_MAX);
	size_t nf = usym_object_files(exe ? 0 : pid, exe, files, PID_FILES_MAX);
	const struct elf_file *exe_file = exe && nf ? files[0] : NULL;
	struct pid_module *mods = arena_alloc(a, sizeof(*mods) * (nf + 1));
	char path[64], real[PATH_MAX];

	if (!exe) {	/* a running process: its executable is /proc/PID/exe */
		snprintf(path, sizeof(path), "/proc/%ld/exe", pid);
		if (realpath(path, real))
			exe_file = elf_file_get(real);
	}
	for (size_t i = 0; i < nf; i++)
		mods[i] = (struct pid_module){ files[i], files[i] == exe_file };
	*n = (int)nf;
	return mods;
}

/*
 * The module a name without glob characters names, as DTrace's libproc
 * finds it (Psymtab.c, object_to_map): a file's full path or name, else
 * the first file whose name is the name and a '.' suffix ("libc" and
 * "libc.so" name libc.so.6), else "a.out" the executable.  Returns the
 * module's name, which its probes carry, or mod when none matches or mod
 * is empty or a glob.
 */
const char *pid_module_resolve(const struct pid_module *m, int n,
			       const char *mod)
{
	size_t len = mod ? strlen(mod) : 0;

	if (!len || strpbrk(mod, "*?[\\"))
		return mod;
	for (int i = 0; i < n; i++)
		if (strcmp(m[i].f->path, mod) == 0 || strcmp(m[i].f->base, mod) == 0)
			return m[i].f->base;
	for (int i = 0; i < n; i++)
		if (strncmp(m[i].f->base, mod, len) == 0 && m[i].f->base[len] == '.')
			return m[i].f->base;
	return mod;
}

bool pid_module_named(const struct pid_module *m, const char *mod)
{
	return !mod || !*mod || catalog_glob_match(mod, m->f->base) ||
	       (m->is_exe && strcmp(mod, "a.out") == 0);
}

/* -- Offset probes -------------------------------------------------------- */

/* An empty name, a glob or hex digits may name offset probes. */
static bool is_glob_name(const char *name)
{
	return !name || !*name || strpbrk(name, "*?[\\");
}

static bool names_offsets(const char *name)
{
	if (is_glob_name(name))
		return true;
	if (name[0] == '0' && (name[1] == 'x' || name[1] == 'X'))
		name += 2;	/* not DTrace's spelling: the hint says so */
	return name[strspn(name, "0123456789abcdefABCDEF")] == '\0';
}

/* What a function's bytes allow.  n < 0: no offset probes, for the
 * reason why at offset bad. */
struct fn_code {
	uint64_t off;		/* the function's file offset */
	uint32_t *starts;	/* the instructions, in order */
	bool *reached;		/* the instruction is reached from the entry */
	long n;
	const char *why;
	size_t bad;
};

static void fn_analyse(int fd, const struct elf_file *f, const struct elf_sym *s,
		       struct fn_code *fc)
{
	uint8_t *code;

	fc->starts = NULL;
	fc->reached = NULL;
	fc->n = -1;
	fc->bad = 0;
	/* The size is the file's word: one past the file's end is refused
	 * before anything is allocated for it. */
	fc->why = "its size or address puts it outside its file";
	if (!elf_file_offset(f, s->addr, &fc->off) || s->size > f->size ||
	    fc->off > f->size - s->size)
		return;
	code = malloc(s->size);
	fc->starts = malloc(s->size * sizeof(*fc->starts));
	fc->reached = malloc(s->size);
	fc->why = "its bytes could not be read";
	if (!code || !fc->starts || !fc->reached) {
		fprintf(stderr, "dscope: out of memory\n");
		abort();
	}
	if (pread(fd, code, s->size, (off_t)fc->off) == (ssize_t)s->size) {
		fc->why = "an instruction at offset 0x%zx could not be decoded";
		fc->n = x86insn_walk(code, s->size, fc->starts, &fc->bad);
	}
	if (fc->n > 0 &&
	    x86insn_reach(code, s->size, fc->starts, fc->n, fc->reached, &fc->bad) < 0) {
		fc->why = "the branch at offset 0x%zx lands inside an instruction";
		fc->n = -1;
	}
	free(code);
}

static void add_offset_probes(struct catalog *cat, long pid, const char *prov,
			      const struct pid_module *m, const struct elf_sym *s,
			      const struct fn_code *fc)
{
	struct arena *a = catalog_arena(cat);

	for (long k = 0; k < fc->n; k++)
		if (fc->reached[k])
			catalog_add(cat, &(struct probe){
				.kind = PROV_PID, .prov = prov, .mod = m->f->base,
				.func = s->name, .sysnr = -1,
				.name = arena_printf(a, "%x", fc->starts[k]),
				.upid = (int)pid, .upath = m->f->path,
				.uoffset = fc->off + fc->starts[k], .uexe = m->is_exe });
}

/* Why offset want of s has no probe, should the description match none. */
static void offset_hint(struct catalog *cat, const struct elf_sym *s,
			uint64_t want, const struct fn_code *fc)
{
	char why[128];
	long k = 0;

	while (k < fc->n && fc->starts[k] < want)
		k++;
	if (fc->n < 0) {
		snprintf(why, sizeof(why), fc->why, fc->bad);
		catalog_set_hint(cat, "%s has no offset probes: %s", s->name, why);
	} else if (want >= s->size) {
		catalog_set_hint(cat, "offset 0x%llx is outside %s (%llu bytes)",
				 (unsigned long long)want, s->name,
				 (unsigned long long)s->size);
	} else if (k == fc->n || fc->starts[k] != want) {
		catalog_set_hint(cat, "offset 0x%llx is inside an instruction of %s",
				 (unsigned long long)want, s->name);
	} else if (!fc->reached[k]) {
		catalog_set_hint(cat, "the instruction at offset 0x%llx of %s is not "
				 "reached from its entry by direct branches (it may "
				 "be data, or code behind a jump table): no probe is "
				 "placed there", (unsigned long long)want, s->name);
	}
}

/* The offset probes of s, made the first time any description asks. */
static void function_offsets(struct catalog *cat, long pid, const char *prov,
			     const struct pid_module *m, int fd,
			     const struct elf_sym *s, const char *name)
{
	/* the key of (pid, file, function): not a path, which starts with / */
	const char *key = arena_printf(catalog_arena(cat), "%p %s", (void *)s,
				       m->f->path);
	bool is_new = catalog_pid_module_new(cat, PROV_PID, pid, key);
	struct fn_code fc;

	if (!is_new && is_glob_name(name))
		return;
	fn_analyse(fd, m->f, s, &fc);
	if (is_new)
		add_offset_probes(cat, pid, prov, m, s, &fc);
	if (!is_glob_name(name))
		offset_hint(cat, s, strtoull(name, NULL, 16), &fc);
	free(fc.starts);
	free(fc.reached);
}

static void module_offsets(struct catalog *cat, long pid, const char *prov,
			   const struct pid_module *m, const struct probe_desc *pd)
{
	int fd = -1;

	for (size_t i = 0; i < m->f->nsyms; i++) {
		const struct elf_sym *s = &m->f->syms[i];

		if (!s->size || (pd->func && *pd->func &&
				 !catalog_glob_match(pd->func, s->name)))
			continue;
		if (fd < 0 && (fd = elf_open(m->f->path)) < 0)
			return;
		function_offsets(cat, pid, prov, m, fd, s, pd->name);
	}
	if (fd >= 0)
		close(fd);
}

/* Offsets are named as DTrace names them: "%llx" */
static void check_offset_spelling(struct catalog *cat, const char *name)
{
	char canon[32];

	if (is_glob_name(name))
		return;
	snprintf(canon, sizeof(canon), "%llx", strtoull(name, NULL, 16));
	if (strcmp(canon, name) != 0)
		catalog_set_hint(cat, "an offset is named in lowercase hex without "
				 "0x or leading zeros: %s", canon);
}

const char *pid_provide(struct catalog *cat, const struct probe_desc *pd)
{
	long pid = provider_pid(pd->prov);
	struct pid_module *mods;
	const char *prov;
	int n;

	if (!pid)
		return pd->mod;
	mods = pid_modules(cat, pid, &n);
	struct probe_desc q = *pd;

	q.mod = pid_module_resolve(mods, n, pd->mod);
	pd = &q;
	prov = arena_printf(catalog_arena(cat), "pid%ld", pid);
	for (int i = 0; i < n; i++) {
		if (!pid_module_named(&mods[i], pd->mod))
			continue;
		if (catalog_pid_module_new(cat, PROV_PID, pid, mods[i].f->path))
			add_probes(cat, pid, prov, &mods[i]);
		if (names_offsets(pd->name))
			module_offsets(cat, pid, prov, &mods[i], pd);
	}
	if (names_offsets(pd->name))
		check_offset_spelling(cat, pd->name);
	return q.mod;
}
