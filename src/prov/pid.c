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
 * classic system directories; /etc/ld.so.cache is not read).  That is
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
 */
#include "prov/pid.h"

#include <ctype.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rt/usym.h"

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

static void add_module(struct arena *a, struct pid_module **v, int *n, int *cap,
		       const char *path, bool is_exe)
{
	char real[PATH_MAX];
	const struct elf_file *f;

	if (!realpath(path, real) || !(f = elf_file_get(real)))
		return;
	for (int i = 0; i < *n; i++)
		if ((*v)[i].f == f)
			return;
	*ARENA_PUSH(a, *v, *n, *cap) = (struct pid_module){ f, is_exe };
}

/* name in dir (a colon-separated list; $ORIGIN is origin's folder) */
static bool search_dirs(const char *dirs, const char *origin, const char *name,
			char *out, size_t len)
{
	char *copy = strdup(dirs ? dirs : ""), *save = NULL;
	bool found = false;

	for (char *d = strtok_r(copy, ":", &save); d && !found;
	     d = strtok_r(NULL, ":", &save)) {
		if (strncmp(d, "$ORIGIN", 7) == 0) {
			const char *slash = strrchr(origin, '/');

			snprintf(out, len, "%.*s%s/%s", slash ? (int)(slash - origin) : 1,
				 slash ? origin : ".", d + 7, name);
		} else {
			snprintf(out, len, "%s/%s", d, name);
		}
		found = access(out, R_OK) == 0;
	}
	free(copy);
	return found;
}

static const char system_dirs[] =
	"/lib/x86_64-linux-gnu:/usr/lib/x86_64-linux-gnu:/lib64:/usr/lib64:"
	"/lib:/usr/lib:/usr/local/lib";

/* The executable, its interpreter and DT_NEEDED closure (breadth first). */
static void command_modules(struct arena *a, const char *exe,
			    struct pid_module **v, int *n, int *cap)
{
	char path[PATH_MAX];

	if (!strchr(exe, '/') && search_dirs(getenv("PATH"), "", exe, path,
					      sizeof(path)))
		exe = path;
	add_module(a, v, n, cap, exe, true);
	if (*n && (*v)[0].f->interp)
		add_module(a, v, n, cap, (*v)[0].f->interp, false);
	for (int i = 0; i < *n; i++) {
		const struct elf_file *f = (*v)[i].f;

		for (size_t k = 0; k < f->nneeded; k++) {
			char path[PATH_MAX];
			const char *name = f->needed[k];

			if (strchr(name, '/') ? (snprintf(path, sizeof(path), "%s", name), 1)
			    : search_dirs(f->runpath, f->path, name, path, sizeof(path)) ||
			      search_dirs(getenv("LD_LIBRARY_PATH"), f->path, name, path,
					  sizeof(path)) ||
			      search_dirs(system_dirs, f->path, name, path, sizeof(path)))
				add_module(a, v, n, cap, path, false);
		}
	}
}

/* Every ELF file the process maps now, the executable first. */
static void process_modules(struct arena *a, long pid, struct pid_module **v,
			    int *n, int *cap)
{
	char path[64], line[4096];
	FILE *fp;

	snprintf(path, sizeof(path), "/proc/%ld/exe", pid);
	add_module(a, v, n, cap, path, true);
	snprintf(path, sizeof(path), "/proc/%ld/maps", pid);
	if (!(fp = fopen(path, "re")))
		return;
	while (fgets(line, sizeof(line), fp)) {
		char *slash = strchr(line, '/');

		line[strcspn(line, "\n")] = '\0';
		if (slash)
			add_module(a, v, n, cap, slash, false);
	}
	fclose(fp);
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
				.uoffset = off, .uexe = m->is_exe });
	}
}

struct pid_module *pid_modules(struct catalog *cat, long pid, int *n)
{
	struct arena *a = catalog_arena(cat);
	struct pid_module *mods = NULL;
	const char *exe = catalog_target_exec(cat, pid);
	int cap = 0;

	*n = 0;
	if (exe)
		command_modules(a, exe, &mods, n, &cap);
	else
		process_modules(a, pid, &mods, n, &cap);
	return mods;
}

bool pid_module_named(const struct pid_module *m, const char *mod)
{
	return !mod || !*mod || catalog_glob_match(mod, m->f->base) ||
	       (m->is_exe && strcmp(mod, "a.out") == 0);
}

void pid_provide(struct catalog *cat, const struct probe_desc *pd)
{
	long pid = provider_pid(pd->prov);
	struct pid_module *mods;
	const char *prov;
	int n;

	if (!pid)
		return;
	mods = pid_modules(cat, pid, &n);
	prov = arena_printf(catalog_arena(cat), "pid%ld", pid);
	for (int i = 0; i < n; i++)
		if (pid_module_named(&mods[i], pd->mod) &&
		    catalog_pid_module_new(cat, PROV_PID, pid, mods[i].f->path))
			add_probes(cat, pid, prov, &mods[i]);
}
