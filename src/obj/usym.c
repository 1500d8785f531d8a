/*
 * usym.c -- ELF symbol tables and process maps.  See usym.h.
 *
 * Files are kept in a list.  Those handed out by elf_file_get (the
 * providers' files, a target's) stay for the session; those read only
 * to name a process's addresses stay while a process kept here maps
 * them, and a sweep lets go of the rest.  Processes are kept while they
 * live (the -c and -p targets for the session, DESIGN.md 3.10), and of
 * those gone, the last USYM_GONE_MAX to go: a long run that sees
 * thousands of processes come and go holds what the living map, not all
 * it has seen.  (DTrace keeps a few process handles likewise: pgmax, 8
 * by default.)  Symbols come from
 * .symtab when the file has one (the executable under test keeps its
 * static functions there), else from its separate debug file's .symtab
 * (obj/debugfile.h: libc6-dbg names libc's static functions), else from
 * .dynsym (a stripped library's exports); each name once, functions
 * only, defined ones only.  GNU
 * indirect functions (strlen's resolver) are left out: their address is
 * the resolver's, not the function's, and a probe there fires once.
 *
 * A process's maps become a list of file-backed ranges, each pointing to
 * its elf_file: an address turns into a file offset (start, pgoff), the
 * offset into a link-time address (PT_LOAD), and that into a symbol.
 * An address in no file is JIT code, if the process's perf map
 * (obj/perfmap.h) names it: those names are kept per pid apart from the
 * ranges, and outlive usym_forget_pid.
 */
#include "obj/usym.h"

#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <inttypes.h>
#include <limits.h>
#include <libelf.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "obj/debugfile.h"
#include "obj/perfmap.h"

/* DT_NEEDED entries followed per file: real ones have tens, and each is
 * searched for along every library folder. */
#define NEEDED_MAX 1024

/* Processes gone whose maps are kept, to name the stacks they left. */
#define USYM_GONE_MAX 16

/* /proc/PID/stat's field of the process's start time (proc(5)) */
#define STAT_STARTTIME 22

struct file_node {
	struct file_node *next;
	struct elf_file *f;		/* NULL: not an ELF file */
	char *path;
	bool kept;			/* handed out by elf_file_get */
	bool marked;			/* a kept process maps it (sweep) */
};

struct map_range {
	uint64_t start, end, pgoff;
	const struct elf_file *f;
	struct file_node *node;		/* f's, for the sweep */
};

struct proc_maps {
	struct proc_maps *next;
	uint32_t pid;
	uint64_t started;		/* STAT_STARTTIME: which process pid is */
	uint64_t gone;			/* 0: alive when last looked; else the
					 * order in which it was found gone */
	bool kept;			/* a target's: for the session */
	struct map_range *r;
	size_t n;
};

/* A process's JIT names: kept when its maps are forgotten, since the
 * map file may be gone by then (obj/perfmap.h). */
struct proc_jit {
	struct proc_jit *next;
	uint32_t pid;
	char mod[32];			/* "perf-PID.map": the module printed */
	struct perfmap map;
};

static struct file_node *files;
static struct proc_maps *procs;
static struct proc_jit *jits;

static void *xrealloc(void *p, size_t n)
{
	void *q = realloc(p, n ? n : 1);

	if (!q) {
		fprintf(stderr, "dscope: out of memory\n");
		abort();
	}
	return q;
}

static char *xstrndup(const char *s, size_t n)
{
	char *c = strndup(s, n);

	if (!c) {
		fprintf(stderr, "dscope: out of memory\n");
		abort();
	}
	return c;
}

static char *xstrdup(const char *s)
{
	return xstrndup(s, strlen(s));
}

int elf_open(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	struct stat st;

	if (fd >= 0 && (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode))) {
		close(fd);
		errno = EINVAL;
		return -1;
	}
	return fd;
}

/* What was said already, "fmt\npath" each: a process's files are read
 * again when it execs or loads more, and one damaged library need not
 * be reported per process. */
static char **warned;
static size_t nwarned;

void usym_warn(const char *path, const char *fmt, ...)
{
	size_t len = strlen(fmt) + strlen(path) + 2;
	char *key = xrealloc(NULL, len);
	va_list ap;

	snprintf(key, len, "%s\n%s", fmt, path);
	for (size_t i = 0; i < nwarned; i++)
		if (strcmp(warned[i], key) == 0) {
			free(key);
			return;
		}
	warned = xrealloc(warned, sizeof(*warned) * (nwarned + 1));
	warned[nwarned++] = key;
	fprintf(stderr, "dscope: warning: %s: ", path);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

/*
 * Which of several names for one address a stack shows, and which of
 * one name's several addresses a probe on the name takes: a global
 * name over a local one (malloc, not __GI___libc_malloc), then the
 * default version over a compatibility one (a debug file's .symtab
 * spells versions into names: memcpy@@GLIBC_2.14, memcpy@GLIBC_2.2.5).
 */
static uint8_t sym_rank(const GElf_Sym *s, const char *name)
{
	const char *at = strchr(name, '@');

	return (uint8_t)((GELF_ST_BIND(s->st_info) != STB_LOCAL) * 2 +
			 (!at || at[1] == '@'));
}

/* By address, and among aliases by rank, then name: a lookup takes the
 * last symbol at or below an address. */
static int cmp_sym(const void *a, const void *b)
{
	const struct elf_sym *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	if (x->rank != y->rank)
		return x->rank < y->rank ? -1 : 1;
	return strcmp(x->name, y->name);
}

/* By name, the highest rank first: dedup_syms keeps the first. */
static int cmp_name(const void *a, const void *b)
{
	const struct elf_sym *x = a, *y = b;
	int c = strcmp(x->name, y->name);

	if (c)
		return c;
	if (x->rank != y->rank)
		return x->rank > y->rank ? -1 : 1;
	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/* How many entries of type t the data holds (0 if none or no data):
 * what the data holds, not what sh_entsize claims, for a header saying
 * entries of one byte would have us allocate 24 bytes per byte of the
 * file. */
static size_t entries(Elf *e, const Elf_Data *d, Elf_Type t)
{
	size_t fs = gelf_fsize(e, t, 1, EV_CURRENT);

	return d && fs ? d->d_size / fs : 0;
}

/* The function symbols of one symbol table section; false if its data
 * cannot be read (then said, once: usym_warn). */
static bool read_symtab(Elf *e, Elf_Scn *scn, GElf_Shdr *sh, struct elf_file *f)
{
	Elf_Data *d = elf_getdata(scn, NULL);
	size_t n = entries(e, d, ELF_T_SYM);

	if (!d) {
		usym_warn(f->path, "its symbol table (section %zu, %llu bytes at "
			  "offset %llu) cannot be read (%s); %s", elf_ndxscn(scn),
			  (unsigned long long)sh->sh_size,
			  (unsigned long long)sh->sh_offset,
			  sh->sh_offset + sh->sh_size > f->size ||
			  sh->sh_offset + sh->sh_size < sh->sh_offset ?
			  "it runs past the end of the file" : elf_errmsg(-1),
			  sh->sh_type == SHT_SYMTAB ?
			  "names come from its debug file or .dynsym instead" :
			  "the functions it exports are not named");
		return false;
	}
	if (!n)
		return true;
	f->syms = xrealloc(f->syms, sizeof(*f->syms) * (f->nsyms + n));
	for (size_t i = 0; i < n; i++) {
		GElf_Sym s;
		const char *name;

		if (!gelf_getsym(d, (int)i, &s) || GELF_ST_TYPE(s.st_info) != STT_FUNC ||
		    s.st_shndx == SHN_UNDEF || s.st_value == 0)
			continue;
		name = elf_strptr(e, sh->sh_link, s.st_name);
		if (!name || !*name || *name == '@')
			continue;
		f->syms[f->nsyms++] = (struct elf_sym){
			xstrndup(name, strcspn(name, "@")), s.st_value, s.st_size,
			sym_rank(&s, name) };
	}
	return true;
}

/* Each name once (versioned aliases and .symtab/.dynsym overlap), then
 * sorted by address for lookups. */
static void dedup_syms(struct elf_file *f)
{
	size_t k = 0;

	if (!f->nsyms)		/* f->syms may be NULL, which qsort refuses */
		return;
	qsort(f->syms, f->nsyms, sizeof(*f->syms), cmp_name);
	for (size_t i = 0; i < f->nsyms; i++) {
		if (k && strcmp(f->syms[k - 1].name, f->syms[i].name) == 0) {
			free((char *)f->syms[i].name);
			continue;
		}
		f->syms[k++] = f->syms[i];
	}
	f->nsyms = k;
	qsort(f->syms, f->nsyms, sizeof(*f->syms), cmp_sym);
}

static void read_dynamic(Elf *e, Elf_Scn *scn, GElf_Shdr *sh, struct elf_file *f)
{
	Elf_Data *d = elf_getdata(scn, NULL);
	size_t n = entries(e, d, ELF_T_DYN);

	for (size_t i = 0; d && i < n; i++) {
		GElf_Dyn dyn;
		const char *s;

		if (!gelf_getdyn(d, (int)i, &dyn))
			continue;
		if (dyn.d_tag != DT_NEEDED && dyn.d_tag != DT_RUNPATH &&
		    dyn.d_tag != DT_RPATH)
			continue;
		if (!(s = elf_strptr(e, sh->sh_link, dyn.d_un.d_val)))
			continue;
		if (dyn.d_tag == DT_NEEDED && f->nneeded == NEEDED_MAX) {
			usym_warn(f->path, "it needs more than %d libraries "
				  "(DT_NEEDED); the rest are not read", NEEDED_MAX);
		} else if (dyn.d_tag == DT_NEEDED) {
			f->needed = xrealloc(f->needed, sizeof(char *) * (f->nneeded + 1));
			f->needed[f->nneeded++] = xstrdup(s);
		} else if (!f->runpath) {
			f->runpath = xstrdup(s);
		}
	}
}

static void read_segments(Elf *e, int fd, struct elf_file *f)
{
	size_t n = 0;

	if (elf_getphdrnum(e, &n) < 0)
		return;
	f->segs = xrealloc(NULL, sizeof(*f->segs) * n);
	for (size_t i = 0; i < n; i++) {
		GElf_Phdr ph;

		if (!gelf_getphdr(e, (int)i, &ph))
			continue;
		if (ph.p_type == PT_LOAD)
			f->segs[f->nsegs++] = (struct elf_seg){ ph.p_vaddr, ph.p_memsz,
								ph.p_offset };
		if (ph.p_type == PT_INTERP && ph.p_filesz < 4096 && !f->interp) {
			char *s = calloc(1, ph.p_filesz + 1);

			if (s && pread(fd, s, ph.p_filesz, (off_t)ph.p_offset) ==
					 (ssize_t)ph.p_filesz)
				f->interp = s;
			else
				free(s);
		}
	}
}

/* The function symbols of e's sections of this type (SHT_SYMTAB or
 * SHT_DYNSYM); false if there is none that can be read. */
static bool read_syms(Elf *e, uint32_t type, struct elf_file *f)
{
	bool read = false;

	for (Elf_Scn *s = NULL; (s = elf_nextscn(e, s));) {
		GElf_Shdr sh;

		if (gelf_getshdr(s, &sh) && sh.sh_type == type)
			read |= read_symtab(e, s, &sh, f);
	}
	return read;
}

/* The .symtab of f's separate debug file (obj/debugfile.h), whose
 * addresses are f's own link-time ones; false if there is none. */
static bool read_debug_syms(Elf *main, const char *path, struct elf_file *f)
{
	char dbg[PATH_MAX];
	bool found = false;
	int fd;
	Elf *e;

	if (!debugfile_find(main, path, dbg, sizeof(dbg)) ||
	    (fd = elf_open(dbg)) < 0)
		return false;
	e = elf_begin(fd, ELF_C_READ, NULL);
	if (e && elf_kind(e) == ELF_K_ELF && read_syms(e, SHT_SYMTAB, f)) {
		f->debug = xstrdup(dbg);
		found = true;
	}
	if (e)
		elf_end(e);
	close(fd);
	return found;
}

static void read_dynamic_sections(Elf *e, struct elf_file *f)
{
	for (Elf_Scn *s = NULL; (s = elf_nextscn(e, s));) {
		GElf_Shdr sh;

		if (gelf_getshdr(s, &sh) && sh.sh_type == SHT_DYNAMIC)
			read_dynamic(e, s, &sh, f);
	}
}

/* Symbols from the best table there is: the file's .symtab, its debug
 * file's, its .dynsym. */
struct elf_file *elf_file_read(const char *path)
{
	int fd = elf_open(path);
	struct elf_file *f = NULL;
	struct stat st;
	Elf *e;

	if (fd < 0 || fstat(fd, &st) < 0) {
		if (fd >= 0)
			close(fd);
		return NULL;
	}
	elf_version(EV_CURRENT);
	e = elf_begin(fd, ELF_C_READ, NULL);
	if (!e || elf_kind(e) != ELF_K_ELF)
		goto out;
	f = calloc(1, sizeof(*f));
	if (!f)
		goto out;
	f->path = xstrdup(path);
	f->base = strrchr(f->path, '/') ? strrchr(f->path, '/') + 1 : f->path;
	f->size = (uint64_t)st.st_size;
	read_segments(e, fd, f);
	read_dynamic_sections(e, f);
	if (!read_syms(e, SHT_SYMTAB, f) && !read_debug_syms(e, path, f))
		read_syms(e, SHT_DYNSYM, f);
	dedup_syms(f);
out:
	if (e)
		elf_end(e);
	close(fd);
	return f;
}

static struct file_node *file_node_get(const char *path)
{
	struct file_node *n;

	for (n = files; n; n = n->next)
		if (strcmp(n->path, path) == 0)
			return n;
	n = xrealloc(NULL, sizeof(*n));
	*n = (struct file_node){ .next = files, .path = xstrdup(path),
				 .f = elf_file_read(path) };
	files = n;
	return n;
}

const struct elf_file *elf_file_get(const char *path)
{
	struct file_node *n = file_node_get(path);

	n->kept = true;
	return n->f;
}

const struct elf_file *elf_file_peek(const char *path)
{
	return file_node_get(path)->f;
}

void elf_file_free(struct elf_file *f)
{
	if (!f)
		return;
	for (size_t i = 0; i < f->nsyms; i++)
		free((char *)f->syms[i].name);
	for (size_t i = 0; i < f->nneeded; i++)
		free(f->needed[i]);
	free(f->syms);
	free(f->segs);
	free(f->needed);
	free(f->runpath);
	free(f->interp);
	free(f->debug);
	free(f->path);
	free(f);
}

bool elf_file_offset(const struct elf_file *f, uint64_t vaddr, uint64_t *off)
{
	for (size_t i = 0; i < f->nsegs; i++) {
		const struct elf_seg *s = &f->segs[i];

		if (vaddr >= s->vaddr && vaddr < s->vaddr + s->memsz) {
			*off = vaddr - s->vaddr + s->offset;
			return true;
		}
	}
	return false;
}

bool elf_file_vaddr(const struct elf_file *f, uint64_t off, uint64_t *vaddr)
{
	for (size_t i = 0; i < f->nsegs; i++) {
		const struct elf_seg *s = &f->segs[i];

		if (off >= s->offset && off < s->offset + s->memsz) {
			*vaddr = off - s->offset + s->vaddr;
			return true;
		}
	}
	return false;
}

const struct elf_sym *elf_file_sym(const struct elf_file *f, uint64_t vaddr)
{
	size_t lo = 0, hi = f->nsyms;

	while (lo < hi) {	/* the first symbol above vaddr */
		size_t mid = (lo + hi) / 2;

		if (f->syms[mid].addr <= vaddr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == 0)
		return NULL;
	const struct elf_sym *s = &f->syms[lo - 1];

	/* past a sized symbol's end: in no function we know */
	if (s->size && vaddr >= s->addr + s->size)
		return NULL;
	return s;
}

/* -- Processes -------------------------------------------------------------- */

static struct proc_maps *find_proc(uint32_t pid)
{
	for (struct proc_maps *p = procs; p; p = p->next)
		if (p->pid == pid)
			return p;
	return NULL;
}

bool usym_maps_line(const char *line, uint64_t *start, uint64_t *end,
		    uint64_t *pgoff, const char **path)
{
	unsigned long long s, e, o;
	char perms[8];
	int pathpos = 0;

	if (sscanf(line, "%llx-%llx %7s %llx %*s %*s %n", &s, &e, perms, &o,
		   &pathpos) < 4 || !pathpos || line[pathpos] != '/' || e <= s)
		return false;
	*start = s;
	*end = e;
	*pgoff = o;
	*path = line + pathpos;
	return true;
}

static void add_range(struct proc_maps *p, const char *line)
{
	uint64_t start, end, pgoff;
	const char *path;
	struct file_node *node;

	if (!usym_maps_line(line, &start, &end, &pgoff, &path) ||
	    !(node = file_node_get(path))->f)
		return;
	p->r = xrealloc(p->r, sizeof(*p->r) * (p->n + 1));
	p->r[p->n++] = (struct map_range){ start, end, pgoff, node->f, node };
}

static struct proc_jit *find_jit(uint32_t pid)
{
	for (struct proc_jit *j = jits; j; j = j->next)
		if (j->pid == pid)
			return j;
	return NULL;
}

/* Read pid's perf map if it changed; its JIT names, NULL if none.  A
 * pid is remembered only once it has a perf map. */
static struct proc_jit *refresh_jit(uint32_t pid)
{
	struct proc_jit *j = find_jit(pid);
	struct perfmap m = { 0 };

	if (j)
		return perfmap_refresh(&j->map, pid) ? j : NULL;
	if (!perfmap_refresh(&m, pid)) {
		perfmap_clear(&m);
		return NULL;
	}
	j = xrealloc(NULL, sizeof(*j));
	*j = (struct proc_jit){ .next = jits, .pid = pid, .map = m };
	snprintf(j->mod, sizeof(j->mod), "perf-%u.map", pid);
	jits = j;
	return j;
}

bool usym_proc_stat(uint32_t pid, int field, int n, uint64_t *out)
{
	char path[64], buf[1024], *p;
	ssize_t len;
	int fd;

	snprintf(path, sizeof(path), "/proc/%u/stat", pid);
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return false;
	len = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (len <= 0)
		return false;
	buf[len] = '\0';
	if (!(p = strrchr(buf, ')')))	/* the command may hold anything */
		return false;
	for (int i = 2; i < field && p; i++)	/* p ends field i */
		p = strchr(p + 1, ' ');
	for (int i = 0; i < n; i++, p = strchr(p + 1, ' '))
		if (!p || sscanf(p, " %" SCNu64, &out[i]) != 1)
			return false;
	return true;
}

/* Is the process p describes still there? */
static bool proc_alive(const struct proc_maps *p)
{
	uint64_t started;

	return usym_proc_stat(p->pid, STAT_STARTTIME, 1, &started) &&
	       started == p->started;
}

static void free_jit(uint32_t pid)
{
	for (struct proc_jit **jp = &jits; *jp; jp = &(*jp)->next)
		if ((*jp)->pid == pid) {
			struct proc_jit *j = *jp;

			*jp = j->next;
			perfmap_clear(&j->map);
			free(j);
			return;
		}
}

/* p leaves the list; with forget_jit, its JIT names too */
static void drop_proc(struct proc_maps *p, bool forget_jit)
{
	for (struct proc_maps **pp = &procs; *pp; pp = &(*pp)->next)
		if (*pp == p) {
			*pp = p->next;
			break;
		}
	if (forget_jit)
		free_jit(p->pid);
	free(p->r);
	free(p);
}

bool usym_note_pid(uint32_t pid)
{
	char path[64], line[4096];
	struct proc_maps *p = find_proc(pid);
	uint64_t started;
	FILE *fp;

	/* a pid gone and used again: the new process's maps */
	if (p && (!p->gone || !usym_proc_stat(pid, STAT_STARTTIME, 1, &started) ||
		  started == p->started))
		return true;
	if (p)
		drop_proc(p, true);
	refresh_jit(pid);
	snprintf(path, sizeof(path), "/proc/%u/maps", pid);
	if (!usym_proc_stat(pid, STAT_STARTTIME, 1, &started) ||
	    !(fp = fopen(path, "re")))
		return false;
	p = calloc(1, sizeof(*p));
	if (!p) {
		fclose(fp);
		return false;
	}
	p->pid = pid;
	p->started = started;
	while (fgets(line, sizeof(line), fp)) {
		line[strcspn(line, "\n")] = '\0';
		add_range(p, line);
	}
	fclose(fp);
	if (p->n == 0) {	/* exited already: its maps are empty */
		free(p);
		return false;
	}
	p->next = procs;
	procs = p;
	return true;
}

void usym_forget_pid(uint32_t pid)
{
	struct proc_maps *p = find_proc(pid);

	if (p)
		drop_proc(p, false);
}

void usym_keep_pid(uint32_t pid)
{
	struct proc_maps *p = find_proc(pid);

	if (p)
		p->kept = true;
}

/* The processes found gone: the oldest dropped past USYM_GONE_MAX. */
static void sweep_procs(void)
{
	static uint64_t deaths;
	size_t ngone = 0;

	for (struct proc_maps *p = procs; p; p = p->next) {
		if (!p->gone && !p->kept && !proc_alive(p))
			p->gone = ++deaths;
		ngone += p->gone != 0;
	}
	for (; ngone > USYM_GONE_MAX; ngone--) {
		struct proc_maps *oldest = NULL;

		for (struct proc_maps *p = procs; p; p = p->next)
			if (p->gone && (!oldest || p->gone < oldest->gone))
				oldest = p;
		drop_proc(oldest, true);
	}
}

void usym_sweep(void)
{
	sweep_procs();
	for (struct file_node *n = files; n; n = n->next)
		n->marked = false;
	for (struct proc_maps *p = procs; p; p = p->next)
		for (size_t i = 0; i < p->n; i++)
			p->r[i].node->marked = true;
	for (struct file_node **np = &files; *np;) {
		struct file_node *n = *np;

		if (n->kept || n->marked) {
			np = &n->next;
			continue;
		}
		*np = n->next;
		elf_file_free(n->f);
		free(n->path);
		free(n);
	}
	/* JIT names of processes never noted, now gone */
	for (struct proc_jit *j = jits, *next; j; j = next) {
		next = j->next;
		if (!find_proc(j->pid) && kill((pid_t)j->pid, 0) < 0 && errno == ESRCH)
			free_jit(j->pid);
	}
}

/* addr in JIT code named by pid's perf map; the map is read again when
 * it does not name addr, for the JIT adds code as it runs. */
static bool jit_lookup(uint32_t pid, uint64_t addr, const char **mod,
		       const char **sym, uint64_t *symaddr)
{
	struct proc_jit *j = find_jit(pid);
	const struct perfmap_sym *s = j ? perfmap_find(&j->map, addr) : NULL;

	if (!s && (j = refresh_jit(pid)))
		s = perfmap_find(&j->map, addr);
	if (!s)
		return false;
	*mod = j->mod;
	*sym = s->name;
	*symaddr = s->start;
	return true;
}

bool usym_lookup(uint32_t pid, uint64_t addr, const char **mod,
		 const char **sym, uint64_t *symaddr)
{
	struct proc_maps *p = find_proc(pid);

	for (size_t i = 0; p && i < p->n; i++) {
		const struct map_range *r = &p->r[i];
		const struct elf_sym *s;
		uint64_t vaddr;

		if (addr < r->start || addr >= r->end)
			continue;
		*mod = r->f->base;
		*sym = NULL;
		if (elf_file_vaddr(r->f, addr - r->start + r->pgoff, &vaddr) &&
		    (s = elf_file_sym(r->f, vaddr))) {
			*sym = s->name;
			*symaddr = addr - (vaddr - s->addr);
		}
		return true;
	}
	return jit_lookup(pid, addr, mod, sym, symaddr);
}

bool usym_fmt_lookup(void *ctx, uint32_t pid, uint64_t addr, const char **mod,
		     const char **sym, uint64_t *symaddr)
{
	(void)ctx;
	usym_note_pid(pid);
	return usym_lookup(pid, addr, mod, sym, symaddr);
}

/* -- The files of a process ---------------------------------------------- */

struct file_set {
	const struct elf_file **v;
	size_t n, max;
};

static void set_add(struct file_set *s, const char *path)
{
	char real[PATH_MAX];
	const struct elf_file *f;

	if (s->n == s->max || !realpath(path, real) || !(f = elf_file_get(real)))
		return;
	for (size_t i = 0; i < s->n; i++)
		if (s->v[i] == f)
			return;
	s->v[s->n++] = f;
}

/* name along dirs (colon-separated; $ORIGIN is origin's folder) -> out */
static bool search_dirs(const char *dirs, const char *origin, const char *name,
			char *out, size_t len)
{
	char *copy = xstrdup(dirs ? dirs : ""), *save = NULL;
	bool found = false;

	for (char *d = strtok_r(copy, ":", &save); d && !found;
	     d = strtok_r(NULL, ":", &save)) {
		const char *slash = strrchr(origin, '/');

		if (strncmp(d, "$ORIGIN", 7) == 0)
			snprintf(out, len, "%.*s%s/%s", slash ? (int)(slash - origin) : 1,
				 slash ? origin : ".", d + 7, name);
		else
			snprintf(out, len, "%s/%s", d, name);
		found = access(out, R_OK) == 0;
	}
	free(copy);
	return found;
}

static const char system_dirs[] =
	"/lib/x86_64-linux-gnu:/usr/lib/x86_64-linux-gnu:/lib64:/usr/lib64:"
	"/lib:/usr/lib:/usr/local/lib";

static void command_files(struct file_set *s, const char *exe)
{
	char path[PATH_MAX];

	if (!strchr(exe, '/') && search_dirs(getenv("PATH"), "", exe, path,
					      sizeof(path)))
		exe = path;
	set_add(s, exe);
	if (s->n && s->v[0]->interp)
		set_add(s, s->v[0]->interp);
	for (size_t i = 0; i < s->n; i++)	/* breadth first; s->n grows */
		for (size_t k = 0; k < s->v[i]->nneeded; k++) {
			const struct elf_file *f = s->v[i];
			const char *name = f->needed[k];

			if (strchr(name, '/'))
				set_add(s, name);
			else if (search_dirs(f->runpath, f->path, name, path, sizeof(path)) ||
				 search_dirs(getenv("LD_LIBRARY_PATH"), f->path, name, path,
					     sizeof(path)) ||
				 search_dirs(system_dirs, f->path, name, path, sizeof(path)))
				set_add(s, path);
		}
}

static void mapped_files(struct file_set *s, long pid)
{
	char path[64], line[4096];
	FILE *fp;

	snprintf(path, sizeof(path), "/proc/%ld/maps", pid);
	if (!(fp = fopen(path, "re")))
		return;
	while (fgets(line, sizeof(line), fp)) {
		char *slash = strchr(line, '/');

		line[strcspn(line, "\n")] = '\0';
		if (slash)
			set_add(s, slash);
	}
	fclose(fp);
}

size_t usym_object_files(long pid, const char *exec, const struct elf_file **out,
			 size_t max)
{
	struct file_set s = { out, 0, max };

	if (exec)
		command_files(&s, exec);
	else if (pid > 0)
		mapped_files(&s, pid);
	return s.n;
}
