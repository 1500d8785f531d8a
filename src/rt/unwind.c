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
 * one are written once, in a run of the map no other file holds
 * (rt/rowspace.h), and the session's budget of rows is spent first come,
 * first served.  A file that does not fit has no rows, marked
 * UW_WHY_BUDGET, so the walk can count the stacks it shortens.
 *
 * A long run sees processes come and go, and with them files (a build's
 * fresh objects, a deployment's new libraries).  Each sweep (about once
 * a second) drops the tables of processes gone (kill(pid, 0)), then lets
 * go of every file no remaining table maps: its keys leave the objs map
 * and its rows go back to the space, to be reused a sweep later, when no
 * walk that found them before can still be reading them.  A process
 * that maps such a file but has no table yet asks for one, and the file
 * is read again.  The files read before the target ran and our own libc
 * are kept: nearly every process maps the latter.  So what the session
 * holds follows the processes alive, not the time it has run.  Freed
 * inodes are used again, so a file is also told by its change time and
 * size: a process mapping a new file by a known key retires the old one
 * (found no more, its rows freed once no table maps it).
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
#include "rt/rowspace.h"

#define OBJECTS_MAX 256		/* files of a target read before it runs */
#define UNWIND_FILES_MAX 4096	/* files given rows in one session */
#define PRUNE_EVERY 10		/* refreshes between looks for processes gone */

/* A file whose rows were looked for, shared by every process mapping it. */
struct unwind_file {
	struct unwind_key key;		/* as stat() shows it */
	struct unwind_key alt;		/* as a mapping of it shows it, if not */
	bool has_alt;
	bool live;			/* false: a slot free for another file */
	bool retired;			/* its inode now names another file:
					 * found no more, freed once unmapped */
	bool pinned;			/* kept for the session: see above */
	struct timespec ctime;		/* as stat() showed it when read, */
	uint64_t size;			/* to tell an inode used again */
	bool marked;			/* a table maps it (during a sweep) */
	struct unwind_obj obj;		/* its rows; count 0: none, first: why */
	uint32_t held;			/* rows it holds from obj.first, index
					 * included; 0: none */
};

/* A process with a table in the map, and the files (indices into
 * unwind_tables.files) that table maps. */
struct unwind_user {
	uint32_t pid;
	uint32_t nfiles;
	uint32_t *files;
};

struct unwind_tables {
	struct unwind_file *files;	/* slots, live or free */
	size_t nfiles, fcap, nlive;
	struct rowspace space;		/* of the rows map */
	uint32_t budget;		/* the rows map's size */
	size_t over_budget;		/* files whose rows did not fit */
	struct unwind_user *users;	/* processes with a table in the map */
	size_t nusers, ucap;
	uint32_t mapped[UNWIND_PROC_VMAS];	/* the files of the table being
						 * built */
	uint32_t nmapped;
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
		if (t->files[i].live && !t->files[i].retired && (same_key(&t->files[i].key, key) ||
		    (t->files[i].has_alt && same_key(&t->files[i].alt, key))))
			return &t->files[i];
	return NULL;
}

static bool stat_key(const char *path, struct unwind_key *key,
		     struct stat *st)
{
	if (stat(path, st) < 0)
		return false;
	*key = (struct unwind_key){ (uint64_t)major(st->st_dev) << 20 | minor(st->st_dev),
				    st->st_ino };
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
 * rows[0, n) as the rows map holds them at [first, first + need): spec.h's
 * page index first, then the rows.
 */
static int write_rows(struct unwind_tables *t, const struct unwind_row *rows,
		      size_t n, uint32_t first)
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
	unwind_index(rows, n, first + npages + 1, all);
	memcpy(all + npages + 1, rows, n * sizeof(*rows));
	for (size_t i = 0; i < need; i++)
		idx[i] = first + (uint32_t)i;
	if (bpf_map_update_batch(t->rows_fd, idx, all, &count, NULL) < 0)
		rc = -errno;
	free(idx);
	free(all);
	return rc;
}

/* A slot for a file: a free one, or one more; NULL if none can be had. */
static struct unwind_file *file_slot(struct unwind_tables *t, int *rc)
{
	if (t->nlive == UNWIND_FILES_MAX)
		return NULL;	/* the objs map is full: frame pointers */
	for (size_t i = 0; i < t->nfiles; i++)
		if (!t->files[i].live)
			return &t->files[i];
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
	t->files[t->nfiles].live = false;
	return &t->files[t->nfiles++];
}

/* rows[0, n) into the map, if they fit the budget: uf's obj and held */
static void place_rows(struct unwind_tables *t, struct unwind_file *uf,
		       const struct unwind_row *rows, size_t n)
{
	size_t need = unwind_rows_needed(rows, n);
	uint32_t first;

	if (n > UNWIND_ROWS_MAX ||
	    !rowspace_take(&t->space, (uint32_t)need, &first)) {
		uf->obj.first = UW_WHY_BUDGET;
		t->over_budget++;
	} else if (write_rows(t, rows, n, first) == 0) {
		uf->obj = (struct unwind_obj){ first, index_pages(rows, n) };
		uf->held = (uint32_t)need;
	} else {
		rowspace_give(&t->space, first, (uint32_t)need);
	}
}

/* uf's keys leave the objs map */
static void retire_file(struct unwind_tables *t, struct unwind_file *uf)
{
	bpf_map_delete_elem(t->objs_fd, &uf->key);
	if (uf->has_alt)
		bpf_map_delete_elem(t->objs_fd, &uf->alt);
	uf->retired = true;
}

/* Let go of uf: its keys leave the objs map, its rows go back. */
static void drop_file(struct unwind_tables *t, struct unwind_file *uf)
{
	if (!uf->retired)
		retire_file(t, uf);
	if (uf->held)
		rowspace_give(&t->space, uf->obj.first, uf->held);
	uf->live = false;
	t->nlive--;
}

/*
 * The file at path, known by key (and alt, the key of its mapping where
 * that differs): its rows written in a free run, if they fit the budget,
 * and its object entered under both keys for the walk's bpf_find_vma
 * path.  Pinned: kept for the session.  NULL on an error worth stopping
 * for (rc), or when no more files can be known.
 */
static struct unwind_file *add_file(struct unwind_tables *t, const char *path,
				    struct unwind_key key, const struct stat *st,
				    bool pinned, int *rc)
{
	const struct elf_file *f = elf_file_peek(path);
	struct unwind_row *rows = NULL;
	struct unwind_file *uf;
	size_t n = 0;

	*rc = 0;
	if (!(uf = file_slot(t, rc)))
		return NULL;
	*uf = (struct unwind_file){ .key = key, .pinned = pinned,
				    .ctime = st->st_ctim, .size = (uint64_t)st->st_size,
				    .obj = { UW_WHY_NONE, 0 } };
	uf->has_alt = mapped_key(path, &uf->alt) && !same_key(&uf->alt, &key);
	if (f && (*rc = unwind_file_rows(f, &rows, &n)) == -ENOMEM)
		return NULL;
	if (n)
		place_rows(t, uf, rows, n);
	free(rows);
	*rc = 0;
	uf->live = true;
	t->nlive++;
	for (int k = 0; k < 1 + uf->has_alt && *rc == 0; k++)
		if (bpf_map_update_elem(t->objs_fd, k ? &uf->alt : &uf->key, &uf->obj,
					BPF_ANY) < 0)
			*rc = -errno;
	if (*rc < 0) {
		drop_file(t, uf);
		return NULL;
	}
	return uf;
}

/*
 * A file known by a mapping's key: still the one that was read, unless
 * the path the process maps it by now shows its inode changed since (an
 * inode freed and used again for a new file: a fresh build, an upgrade).
 * Then the old one is retired and NULL returned, for the new to be read.
 * A path that holds another inode tells nothing: the file mapped may be
 * one deleted or replaced since, whose rows are still right.
 */
static struct unwind_file *still_same(struct unwind_tables *t,
				      struct unwind_file *uf,
				      const char *const paths[2])
{
	struct unwind_key k;
	struct stat st;

	for (int i = 0; i < 2; i++) {
		if (!stat_key(paths[i], &k, &st) || !same_key(&k, &uf->key))
			continue;
		if (st.st_ctim.tv_sec == uf->ctime.tv_sec &&
		    st.st_ctim.tv_nsec == uf->ctime.tv_nsec &&
		    (uint64_t)st.st_size == uf->size)
			return uf;
		retire_file(t, uf);
		return NULL;
	}
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
	struct stat st;
	char root[PATH_MAX + 32];
	const char *const paths[2] = { path, root };

	*rc = 0;
	snprintf(root, sizeof(root), "/proc/%u/root%s", pid, path);
	if (uf && (uf = still_same(t, uf, paths)))
		return uf;
	for (int i = 0; i < 2; i++) {
		if (!stat_key(paths[i], &k, &st))
			continue;
		if (same_key(&k, &key) ||
		    (mapped_key(paths[i], &k) && same_key(&k, &key)))
			return add_file(t, paths[i], k, &st, false, rc);
	}
	return NULL;
}

/* end_code and start_stack, /proc/PID/stat's fields 27 and 28 */
static bool read_stamp(uint32_t pid, uint64_t stamp[2])
{
	return usym_proc_stat(pid, 27, 2, stamp);
}

/* pid's table is in the map, mapping the files of t->mapped */
static int remember_user(struct unwind_tables *t, uint32_t pid)
{
	struct unwind_user *u = NULL;
	uint32_t *files;

	for (size_t i = 0; i < t->nusers && !u; i++)
		if (t->users[i].pid == pid)
			u = &t->users[i];
	if (!u && t->nusers == t->ucap) {
		size_t cap = t->ucap ? 2 * t->ucap : 64;
		struct unwind_user *v = realloc(t->users, cap * sizeof(*v));

		if (!v)
			return -ENOMEM;
		t->users = v;
		t->ucap = cap;
	}
	files = malloc((t->nmapped ? t->nmapped : 1) * sizeof(*files));
	if (!files)
		return -ENOMEM;
	memcpy(files, t->mapped, t->nmapped * sizeof(*files));
	if (!u)
		u = &t->users[t->nusers++];
	else
		free(u->files);
	*u = (struct unwind_user){ pid, t->nmapped, files };
	return 0;
}

/* The table being built maps uf. */
static void note_mapped(struct unwind_tables *t, const struct unwind_file *uf)
{
	uint32_t i = (uint32_t)(uf - t->files);

	for (uint32_t k = 0; k < t->nmapped; k++)
		if (t->mapped[k] == i)
			return;
	t->mapped[t->nmapped++] = i;
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
	t->nmapped = 0;
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
		if (uf)
			note_mapped(t, uf);
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
	return remember_user(t, pid);
}

int unwind_prepare(struct spec *sp, uint64_t budget, struct unwind_tables **out)
{
	struct unwind_tables *t;

	*out = NULL;
	if (sp->unwind_rows_map < 0)
		return 0;
	if (!(t = calloc(1, sizeof(*t))))
		return -ENOMEM;
	t->budget = t->space.budget = (uint32_t)budget;
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
	struct stat st;
	FILE *f = fopen("/proc/self/maps", "re");
	int rc = 0;

	while (f && fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		if (!(path = strchr(line, '/')) || strncmp(basename_of(path), "libc.so.", 8) != 0)
			continue;
		if (stat_key(path, &key, &st) && !find_file(t, &key))
			add_file(t, path, key, &st, true, &rc);
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
		struct stat st;

		if (stat_key(files[i]->path, &key, &st) && !find_file(t, &key))
			add_file(t, files[i]->path, key, &st, true, &rc);
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

/*
 * The tables of processes gone, then the files no table left maps.  A pid
 * used again keeps its table of another mm until the walk asks for its
 * own.  The rows given back a sweep ago become free first: those given
 * back now wait for the next.
 */
static void sweep(struct unwind_tables *t)
{
	size_t k = 0;

	rowspace_recycle(&t->space);
	for (size_t i = 0; i < t->nusers; i++) {
		struct unwind_user *u = &t->users[i];

		if (kill((pid_t)u->pid, 0) < 0 && errno == ESRCH) {
			bpf_map_delete_elem(t->procs_fd, &u->pid);
			free(u->files);
		} else {
			t->users[k++] = *u;
		}
	}
	t->nusers = k;
	for (size_t i = 0; i < t->nfiles; i++)
		t->files[i].marked = false;
	for (size_t i = 0; i < t->nusers; i++)
		for (uint32_t f = 0; f < t->users[i].nfiles; f++)
			t->files[t->users[i].files[f]].marked = true;
	for (size_t i = 0; i < t->nfiles; i++)
		if (t->files[i].live && !t->files[i].marked &&
		    (!t->files[i].pinned || t->files[i].retired))
			drop_file(t, &t->files[i]);
}

int unwind_refresh(struct unwind_tables *t)
{
	uint32_t want[UNWIND_WANT_MAX], key, *prev = NULL;
	size_t n = 0;
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
	if (++t->refreshes % PRUNE_EVERY == 0)
		sweep(t);
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
	for (size_t i = 0; i < t->nusers; i++)
		free(t->users[i].files);
	free(t->users);
	free(t->files);
	rowspace_free(&t->space);
	free(t);
}
