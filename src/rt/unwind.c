/*
 * unwind.c -- unwind tables into BPF maps.  See unwind.h.
 *
 * A file's rows are computed at link-time addresses (ehframe.c) and moved
 * to file offsets through its PT_LOAD segments, because that is what a
 * BPF program can compute from a mapping (pc - vm_start + vm_pgoff * page
 * size) whatever address the file was loaded at.  A function's end row
 * may sit exactly at its segment's end, outside it: it is placed by the
 * byte before it.
 *
 * A file is known to the BPF side by (device, inode), the identity the
 * kernel's mapping carries; stat() gives the device in the user encoding,
 * turned here into the kernel's (major << 20 | minor).  Files reached by
 * two paths (a symlinked /lib) are one object.  On overlayfs the mapping
 * may hold the file underneath (6.1 maps the real file), whose device
 * differs from the one stat() reports: the key of a mapping of the file,
 * as /proc/self/maps shows it, is then a second key to the same rows.
 * Those keys serve the walk's bpf_find_vma path, while a process has no
 * table yet.
 *
 * A process's table lists its executable mappings as /proc/PID/maps
 * shows them, each with its file's rows.  Files are shared: the rows of
 * one are written once, after the rows already in the map (nothing is
 * ever moved or freed, so a walk never reads rows being rewritten), and
 * the session's budget of rows is spent first come, first served.  A
 * file that does not fit has no rows, marked UW_WHY_BUDGET, so the walk
 * can count the stacks it shortens.  Tables of processes gone are
 * dropped at each refresh (kill(pid, 0)), so the map holds the living.
 */
#include "rt/unwind.h"

#include <bpf/bpf.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "obj/ehframe.h"
#include "obj/usym.h"

#define OBJECTS_MAX 256		/* files of a target read before it runs */
#define UNWIND_FILES_MAX 4096	/* files given rows in one session */
#define PRUNE_EVERY 10		/* refreshes between looks for processes gone */

/* A file whose rows were looked for, shared by every process mapping it. */
struct unwind_file {
	struct unwind_key key;		/* as stat() shows it */
	struct unwind_key alt;		/* as a mapping of it shows it, if not */
	bool has_alt;
	struct unwind_obj obj;		/* its rows; count 0: none, first: why */
};

struct unwind_tables {
	struct unwind_file *files;
	size_t nfiles, fcap;
	uint32_t used, budget;		/* rows written; the rows map's size */
	size_t over_budget;		/* files whose rows did not fit */
	uint32_t *pids;			/* processes with a table in the map */
	size_t npids, pcap;
	uint64_t missed;		/* processes gone before their maps were read */
	uint64_t refreshes;		/* unwind_refresh calls */
	int rows_fd, objs_fd, procs_fd, want_fd, short_fd;
	struct unwind_proc proc;	/* the one being built */
};

/* The .eh_frame section's bytes (malloc'd) and link-time address. */
static int read_eh_frame(const char *path, uint8_t **data, size_t *size,
			 uint64_t *vaddr)
{
	int fd = elf_open(path), rc = -ENOENT;
	size_t shstrndx;
	Elf *e;

	if (fd < 0)
		return -errno;
	elf_version(EV_CURRENT);
	e = elf_begin(fd, ELF_C_READ, NULL);
	if (!e || elf_getshdrstrndx(e, &shstrndx) < 0)
		goto out;
	for (Elf_Scn *s = NULL; (s = elf_nextscn(e, s));) {
		GElf_Shdr sh;
		Elf_Data *d;
		const char *name;

		if (!gelf_getshdr(s, &sh) || sh.sh_type != SHT_PROGBITS ||
		    !(name = elf_strptr(e, shstrndx, sh.sh_name)) ||
		    strcmp(name, ".eh_frame") != 0)
			continue;
		if (!(d = elf_rawdata(s, NULL)) || !d->d_buf)
			break;
		rc = -ENOMEM;
		if (!(*data = malloc(d->d_size ? d->d_size : 1)))
			break;
		memcpy(*data, d->d_buf, d->d_size);
		*size = d->d_size;
		*vaddr = sh.sh_addr;
		rc = 0;
		break;
	}
out:
	if (e)
		elf_end(e);
	close(fd);
	return rc;
}

/* link-time pc -> file offset; a row at a segment's very end included */
static bool place(const struct elf_file *f, uint64_t pc, uint32_t *off)
{
	uint64_t o;

	if (!elf_file_offset(f, pc, &o)) {
		if (pc == 0 || !elf_file_offset(f, pc - 1, &o))
			return false;
		o++;
	}
	if (o > UINT32_MAX)
		return false;
	*off = (uint32_t)o;
	return true;
}

int unwind_file_rows(const struct elf_file *f, struct unwind_row **rows, size_t *n)
{
	struct eh_row *eh = NULL;
	uint8_t *data = NULL;
	size_t size = 0, neh = 0, k = 0, bad = 0;
	uint64_t vaddr = 0;
	int rc;

	*rows = NULL;
	*n = 0;
	if (!f)
		return -ENOENT;
	if ((rc = read_eh_frame(f->path, &data, &size, &vaddr)) < 0)
		return rc;
	rc = ehframe_rows(data, size, vaddr, &eh, &neh, &bad);
	free(data);
	if (rc == -EINVAL)
		usym_warn(f->path, "its .eh_frame is malformed at offset %zu; stacks "
			  "through the functions it describes from there on follow "
			  "frame pointers", bad);
	if (rc == -ENOMEM || !(*rows = malloc((neh ? neh : 1) * sizeof(**rows)))) {
		free(eh);
		return -ENOMEM;
	}
	for (size_t i = 0; i < neh; i++) {
		struct unwind_row r = eh[i].r;

		if (!place(f, eh[i].pc, &r.pc))
			continue;
		if (k && r.pc <= (*rows)[k - 1].pc)
			continue;	/* segments out of order: keep it sorted */
		(*rows)[k++] = r;
	}
	free(eh);
	*n = k;
	return 0;
}

const struct unwind_row *unwind_row_at(const struct unwind_row *rows, size_t n,
				       uint32_t off)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {	/* the first row above off */
		size_t mid = (lo + hi) / 2;

		if (rows[mid].pc <= off)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo ? &rows[lo - 1] : NULL;
}

/* the pages spec.h's index covers, from the file's start to the last row's */
static uint32_t index_pages(const struct unwind_row *rows, size_t n)
{
	return (rows[n - 1].pc >> UNWIND_PAGE_SHIFT) + 1;
}

size_t unwind_rows_needed(const struct unwind_row *rows, size_t n)
{
	return index_pages(rows, n) + 1 + n;
}

/*
 * The key the kernel gives a mapping of path: a page of it mapped here,
 * the device and inode /proc/self/maps shows for that page.  A target's
 * mapping of the file holds the same file, whether or not it has mapped
 * it yet.  False if it cannot be told.
 */
static bool mapped_key(const char *path, struct unwind_key *key)
{
	int fd = elf_open(path);
	void *page = fd >= 0 ? mmap(NULL, 1, PROT_READ, MAP_PRIVATE, fd, 0) : MAP_FAILED;
	unsigned long long start, inode;
	unsigned maj, min;
	char line[512];
	bool found = false;
	FILE *f = page != MAP_FAILED ? fopen("/proc/self/maps", "re") : NULL;

	while (f && !found && fgets(line, sizeof(line), f))
		if (sscanf(line, "%llx-%*x %*s %*x %x:%x %llu", &start, &maj, &min,
			   &inode) == 4 && start == (uintptr_t)page) {
			*key = (struct unwind_key){ (uint64_t)maj << 20 | min, inode };
			found = true;
		}
	if (f)
		fclose(f);
	if (page != MAP_FAILED)
		munmap(page, 1);
	if (fd >= 0)
		close(fd);
	return found;
}

static const char *basename_of(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

static bool same_key(const struct unwind_key *a, const struct unwind_key *b)
{
	return a->dev == b->dev && a->ino == b->ino;
}

static struct unwind_file *find_file(struct unwind_tables *t,
				     const struct unwind_key *key)
{
	for (size_t i = 0; i < t->nfiles; i++)
		if (same_key(&t->files[i].key, key) ||
		    (t->files[i].has_alt && same_key(&t->files[i].alt, key)))
			return &t->files[i];
	return NULL;
}

static bool stat_key(const char *path, struct unwind_key *key)
{
	struct stat st;

	if (stat(path, &st) < 0)
		return false;
	*key = (struct unwind_key){ (uint64_t)major(st.st_dev) << 20 | minor(st.st_dev),
				    st.st_ino };
	return true;
}

/*
 * For page p, r rows lie below it and e below the next: its range is
 * [r - 1, e), the row before the page being the one its first offsets
 * fall under, and never empty, so that a search always ends on a row
 * to check.
 */
void unwind_index(const struct unwind_row *rows, size_t n, uint32_t rows0,
		  struct unwind_row *index)
{
	uint32_t npages = index_pages(rows, n);
	size_t r, e = 0;

	for (uint32_t p = 0; p < npages; p++) {
		uint64_t next = (uint64_t)(p + 1) << UNWIND_PAGE_SHIFT;
		size_t lo;

		r = e;
		while (e < n && rows[e].pc < next)
			e++;
		lo = r ? r - 1 : 0;
		index[p] = (struct unwind_row){
			.pc = rows0 + (uint32_t)lo,
			.cfa_off = (int32_t)(rows0 + (e > lo ? e : lo + 1)) };
	}
	index[npages] = (struct unwind_row){ .pc = rows0 + (uint32_t)n - 1,
					     .cfa_off = (int32_t)(rows0 + n) };
}

/*
 * rows[0, n) as the rows map holds them at [t->used, t->used + need):
 * spec.h's page index first, then the rows.
 */
static int write_rows(struct unwind_tables *t, const struct unwind_row *rows,
		      size_t n)
{
	uint32_t npages = index_pages(rows, n);
	size_t need = unwind_rows_needed(rows, n);
	uint32_t count = (uint32_t)need;
	struct unwind_row *all = calloc(need, sizeof(*all));
	uint32_t *idx = malloc(need * sizeof(*idx));
	int rc = 0;

	if (!all || !idx) {
		free(all);
		free(idx);
		return -ENOMEM;
	}
	unwind_index(rows, n, t->used + npages + 1, all);
	memcpy(all + npages + 1, rows, n * sizeof(*rows));
	for (size_t i = 0; i < need; i++)
		idx[i] = t->used + (uint32_t)i;
	if (bpf_map_update_batch(t->rows_fd, idx, all, &count, NULL) < 0)
		rc = -errno;
	free(idx);
	free(all);
	return rc;
}

/*
 * The file at path, known by key (and alt, the key of its mapping where
 * that differs): its rows written after those already there, if they fit
 * the budget, and its object entered under both keys for the walk's
 * bpf_find_vma path.  NULL on an error worth stopping for (rc).
 */
static struct unwind_file *add_file(struct unwind_tables *t, const char *path,
				    struct unwind_key key, int *rc)
{
	const struct elf_file *f = elf_file_get(path);
	struct unwind_row *rows = NULL;
	struct unwind_file *uf;
	size_t n = 0;

	*rc = 0;
	if (t->nfiles == UNWIND_FILES_MAX)
		return NULL;	/* the objs map is full: frame pointers */
	if (t->nfiles == t->fcap) {
		size_t cap = t->fcap ? 2 * t->fcap : 64;
		struct unwind_file *v = realloc(t->files, cap * sizeof(*v));

		if (!v) {
			*rc = -ENOMEM;
			return NULL;
		}
		t->files = v;
		t->fcap = cap;
	}
	uf = &t->files[t->nfiles];
	*uf = (struct unwind_file){ .key = key, .obj = { UW_WHY_NONE, 0 } };
	uf->has_alt = mapped_key(path, &uf->alt) && !same_key(&uf->alt, &key);
	if (f && (*rc = unwind_file_rows(f, &rows, &n)) == -ENOMEM)
		return NULL;
	size_t need = n ? unwind_rows_needed(rows, n) : 0;

	if (n && (n > UNWIND_ROWS_MAX || need > t->budget - t->used)) {
		uf->obj.first = UW_WHY_BUDGET;
		t->over_budget++;
	} else if (n && write_rows(t, rows, n) == 0) {
		uf->obj = (struct unwind_obj){ t->used, index_pages(rows, n) };
		t->used += (uint32_t)need;
	}
	free(rows);
	*rc = 0;
	for (int k = 0; k < 1 + uf->has_alt && *rc == 0; k++)
		if (bpf_map_update_elem(t->objs_fd, k ? &uf->alt : &uf->key, &uf->obj,
					BPF_ANY) < 0)
			*rc = -errno;
	if (*rc < 0)
		return NULL;
	t->nfiles++;
	return uf;
}

/*
 * The file a process maps from path, the mapping's key from its maps:
 * known already, or read now from where the process sees it (its root,
 * when that is not ours).  The path must hold the mapped file (stat()
 * agrees, or a mapping of it does: overlayfs), else it is not this one
 * and the mapping has no rows.
 */
static struct unwind_file *mapped_file(struct unwind_tables *t, uint32_t pid,
				       const char *path, struct unwind_key key,
				       int *rc)
{
	struct unwind_file *uf = find_file(t, &key);
	struct unwind_key k;
	char root[PATH_MAX + 32];

	*rc = 0;
	if (uf)
		return uf;
	snprintf(root, sizeof(root), "/proc/%u/root%s", pid, path);
	for (int i = 0; i < 2; i++) {
		const char *p = i ? root : path;

		if (!stat_key(p, &k))
			continue;
		if (same_key(&k, &key) ||
		    (mapped_key(p, &k) && same_key(&k, &key)))
			return add_file(t, p, k, rc);
	}
	return NULL;
}

/* end_code and start_stack, /proc/PID/stat's fields 27 and 28 */
static bool read_stamp(uint32_t pid, uint64_t stamp[2])
{
	char path[64], buf[1024], *p;
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/%u/stat", pid);
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return false;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return false;
	buf[n] = '\0';
	if (!(p = strrchr(buf, ')')))	/* the command may hold anything */
		return false;
	/* field 3 (state) on: 24 fields to skip before end_code */
	for (int i = 0; i < 25 && p; i++)
		p = strchr(p + 1, ' ');
	return p && sscanf(p, " %" SCNu64 " %" SCNu64, &stamp[0], &stamp[1]) == 2;
}

static int remember_pid(struct unwind_tables *t, uint32_t pid)
{
	for (size_t i = 0; i < t->npids; i++)
		if (t->pids[i] == pid)
			return 0;
	if (t->npids == t->pcap) {
		size_t cap = t->pcap ? 2 * t->pcap : 64;
		uint32_t *v = realloc(t->pids, cap * sizeof(*v));

		if (!v)
			return -ENOMEM;
		t->pids = v;
		t->pcap = cap;
	}
	t->pids[t->npids++] = pid;
	return 0;
}

/*
 * Process pid's table from its maps: each executable mapping with its
 * file's rows (read now for a file not seen before), entered in the procs
 * map.  The mm it describes is told by stat's fields, read before and
 * after the maps: an exec between them leaves the table to the next
 * asking.  -ESRCH: the process is gone.
 */
static int build_proc(struct unwind_tables *t, uint32_t pid)
{
	struct unwind_proc *pr = &t->proc;
	uint64_t before[2], after[2];
	char path[64], line[PATH_MAX + 128];
	FILE *f;
	int rc = 0;

	snprintf(path, sizeof(path), "/proc/%u/maps", pid);
	if (!read_stamp(pid, before) || !(f = fopen(path, "re")))
		return -ESRCH;
	memset(pr, 0, offsetof(struct unwind_proc, vmas));
	while (rc == 0 && pr->n < UNWIND_PROC_VMAS && fgets(line, sizeof(line), f)) {
		unsigned long long start, end, off, ino;
		unsigned maj, min;
		char perms[8];
		int at = 0;
		struct unwind_vma *v = &pr->vmas[pr->n];
		struct unwind_file *uf = NULL;

		if (sscanf(line, "%llx-%llx %7s %llx %x:%x %llu %n", &start, &end, perms,
			   &off, &maj, &min, &ino, &at) < 7 || strlen(perms) < 3 ||
		    perms[2] != 'x')
			continue;
		line[strcspn(line, "\n")] = '\0';
		if (ino && line[at] == '/')
			uf = mapped_file(t, pid, line + at,
					 (struct unwind_key){ (uint64_t)maj << 20 | min, ino },
					 &rc);
		*v = (struct unwind_vma){ start, end, off - start,
					  uf ? uf->obj : (struct unwind_obj){ UW_WHY_NONE, 0 } };
		pr->n++;
	}
	fclose(f);
	if (rc < 0)
		return rc;
	if (!read_stamp(pid, after) || memcmp(before, after, sizeof(before)) != 0)
		return 0;
	pr->end_code = after[0];
	pr->start_stack = after[1];
	/* UNWIND_PROCS_MAX tables kept already: its stacks count as pending */
	if (bpf_map_update_elem(t->procs_fd, &pid, pr, BPF_ANY) < 0)
		return 0;
	return remember_pid(t, pid);
}

int unwind_prepare(struct spec *sp, uint64_t budget, struct unwind_tables **out)
{
	struct unwind_tables *t;

	*out = NULL;
	if (sp->unwind_rows_map < 0)
		return 0;
	if (!(t = calloc(1, sizeof(*t))))
		return -ENOMEM;
	t->budget = (uint32_t)budget;
	sp->maps[sp->unwind_rows_map].max_entries = t->budget;
	sp->maps[sp->unwind_objs_map].max_entries = 2 * UNWIND_FILES_MAX;
	*out = t;
	return 0;
}

/*
 * The C library dscope itself maps: nearly every process maps it, and it
 * is the file without frame pointers.  Its rows from the start let the
 * walk of a process without a table yet (bpf_find_vma's) through it.
 */
static int add_own_libc(struct unwind_tables *t)
{
	char line[PATH_MAX + 128], *path;
	struct unwind_key key;
	FILE *f = fopen("/proc/self/maps", "re");
	int rc = 0;

	while (f && fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		if (!(path = strchr(line, '/')) || strncmp(basename_of(path), "libc.so.", 8) != 0)
			continue;
		if (stat_key(path, &key) && !find_file(t, &key))
			add_file(t, path, key, &rc);
		break;
	}
	if (f)
		fclose(f);
	return rc;
}

int unwind_fill(const struct spec *sp, struct unwind_tables *t, long pid,
		const char *exec, FILE *err, const char *progname)
{
	const struct elf_file *files[OBJECTS_MAX];
	size_t nfiles;
	int rc = 0;

	if (!t)
		return 0;
	t->rows_fd = sp->maps[sp->unwind_rows_map].fd;
	t->objs_fd = sp->maps[sp->unwind_objs_map].fd;
	t->procs_fd = sp->maps[sp->unwind_procs_map].fd;
	t->want_fd = sp->maps[sp->unwind_want_map].fd;
	t->short_fd = sp->maps[sp->unwind_short_map].fd;
	/* the target's files before it runs: its first stacks need them */
	nfiles = pid > 0 ? usym_object_files(pid, exec, files, OBJECTS_MAX) : 0;
	for (size_t i = 0; rc == 0 && i < nfiles; i++) {
		struct unwind_key key;

		if (stat_key(files[i]->path, &key) && !find_file(t, &key))
			add_file(t, files[i]->path, key, &rc);
	}
	if (rc == 0)
		rc = add_own_libc(t);
	if (rc == 0 && pid > 0 && !exec && (rc = build_proc(t, (uint32_t)pid)) == -ESRCH)
		rc = 0;		/* gone already: said elsewhere */
	if (rc < 0)
		fprintf(err, "%s: could not fill the unwind tables: %s\n", progname,
			strerror(-rc));
	return rc;
}

int unwind_refresh(struct unwind_tables *t)
{
	uint32_t want[UNWIND_WANT_MAX], key, *prev = NULL;
	size_t n = 0, k = 0;
	int rc = 0;

	if (!t)
		return 0;
	while (n < UNWIND_WANT_MAX && bpf_map_get_next_key(t->want_fd, prev, &key) == 0) {
		want[n++] = key;
		prev = &want[n - 1];
	}
	for (size_t i = 0; i < n; i++) {
		bpf_map_delete_elem(t->want_fd, &want[i]);
		if (want[i] == 0)
			continue;	/* the idle task: no user stack, no maps */
		if (rc == 0 && (rc = build_proc(t, want[i])) == -ESRCH) {
			t->missed++;
			rc = 0;
		}
	}
	/* the tables of processes gone, every PRUNE_EVERY calls: a pid used
	 * again finds a table of another mm, and asks for its own */
	if (++t->refreshes % PRUNE_EVERY != 0)
		return rc;
	for (size_t i = 0; i < t->npids; i++)
		if (kill((pid_t)t->pids[i], 0) < 0 && errno == ESRCH)
			bpf_map_delete_elem(t->procs_fd, &t->pids[i]);
		else
			t->pids[k++] = t->pids[i];
	t->npids = k;
	return rc;
}

void unwind_report(const struct unwind_tables *t, FILE *err, const char *progname)
{
	uint64_t n[UW_WHY_COUNT] = { 0 };

	if (!t)
		return;
	for (uint32_t w = UW_WHY_PENDING; w < UW_WHY_COUNT; w++)
		bpf_map_lookup_elem(t->short_fd, &w, &n[w]);
	if (n[UW_WHY_PENDING]) {
		fprintf(err, "%s: %" PRIu64 " user stack%s followed frame pointers in "
			"part: %s process's unwind table was not built yet", progname,
			n[UW_WHY_PENDING], n[UW_WHY_PENDING] == 1 ? "" : "s",
			n[UW_WHY_PENDING] == 1 ? "its" : "their");
		if (t->missed)
			fprintf(err, " (%" PRIu64 " process%s ended before one could be)",
				t->missed, t->missed == 1 ? "" : "es");
		fputc('\n', err);
	}
	if (n[UW_WHY_BUDGET])
		fprintf(err, "%s: %" PRIu64 " user stack%s followed frame pointers in "
			"part: %zu file%s did not fit in the unwind table budget "
			"(-x ustackrows=%" PRIu32 ")\n", progname, n[UW_WHY_BUDGET],
			n[UW_WHY_BUDGET] == 1 ? "" : "s", t->over_budget,
			t->over_budget == 1 ? "" : "s", t->budget);
}

void unwind_tables_free(struct unwind_tables *t)
{
	if (!t)
		return;
	free(t->files);
	free(t->pids);
	free(t);
}
