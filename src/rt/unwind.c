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
 */
#include "rt/unwind.h"

#include <bpf/bpf.h>
#include <errno.h>
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

#define OBJECTS_MAX 256		/* files of one process given tables */

struct unwind_tables {
	struct unwind_key keys[OBJECTS_MAX];
	struct unwind_obj objs[OBJECTS_MAX];
	size_t nobjs;
	struct unwind_row *rows;
	size_t nrows, cap;
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

static bool known_key(const struct unwind_tables *t, const struct unwind_key *key)
{
	for (size_t i = 0; i < t->nobjs; i++)
		if (memcmp(&t->keys[i], key, sizeof(*key)) == 0)
			return true;
	return false;
}

static int add_object(struct unwind_tables *t, const struct elf_file *f)
{
	struct unwind_row *rows;
	struct unwind_key key, mapped;
	struct stat st;
	size_t n;

	if (t->nobjs == OBJECTS_MAX || stat(f->path, &st) < 0)
		return 0;
	key = (struct unwind_key){ (uint64_t)major(st.st_dev) << 20 | minor(st.st_dev),
				   st.st_ino };
	if (known_key(t, &key))
		return 0;
	if (unwind_file_rows(f, &rows, &n) == -ENOMEM)
		return -ENOMEM;
	if (n == 0 || n > UNWIND_ROWS_MAX || t->nrows + n > UINT32_MAX) {
		free(rows);
		return 0;
	}
	if (t->nrows + n > t->cap) {
		size_t cap = 2 * (t->nrows + n);
		struct unwind_row *v = realloc(t->rows, cap * sizeof(*v));

		if (!v) {
			free(rows);
			return -ENOMEM;
		}
		t->rows = v;
		t->cap = cap;
	}
	memcpy(t->rows + t->nrows, rows, n * sizeof(*rows));
	free(rows);
	t->keys[t->nobjs] = key;
	t->objs[t->nobjs++] = (struct unwind_obj){ (uint32_t)t->nrows, (uint32_t)n };
	if (t->nobjs < OBJECTS_MAX && mapped_key(f->path, &mapped) &&
	    !known_key(t, &mapped)) {
		t->keys[t->nobjs] = mapped;
		t->objs[t->nobjs] = t->objs[t->nobjs - 1];
		t->nobjs++;
	}
	t->nrows += n;
	return 0;
}

int unwind_prepare(struct spec *sp, long pid, const char *exec,
		   struct unwind_tables **out)
{
	const struct elf_file *files[OBJECTS_MAX];
	struct unwind_tables *t;
	size_t nfiles;

	*out = NULL;
	if (sp->unwind_rows_map < 0)
		return 0;
	if (!(t = calloc(1, sizeof(*t))))
		return -ENOMEM;
	nfiles = usym_object_files(pid, exec, files, OBJECTS_MAX);
	for (size_t i = 0; i < nfiles; i++)
		if (add_object(t, files[i]) < 0) {
			unwind_tables_free(t);
			return -ENOMEM;
		}
	sp->maps[sp->unwind_rows_map].max_entries = t->nrows ? (uint32_t)t->nrows : 1;
	sp->maps[sp->unwind_objs_map].max_entries = t->nobjs ? (uint32_t)t->nobjs : 1;
	*out = t;
	return 0;
}

int unwind_fill(const struct spec *sp, struct unwind_tables *t, FILE *err,
		const char *progname)
{
	const struct spec_map *rows, *objs;
	uint32_t *idx = NULL, count;
	int rc = 0;

	if (!t)
		return 0;
	rows = &sp->maps[sp->unwind_rows_map];
	objs = &sp->maps[sp->unwind_objs_map];
	if (t->nrows && !(idx = malloc(t->nrows * sizeof(*idx))))
		rc = -ENOMEM;
	for (size_t i = 0; idx && i < t->nrows; i++)
		idx[i] = (uint32_t)i;
	count = (uint32_t)t->nrows;
	if (idx && bpf_map_update_batch(rows->fd, idx, t->rows, &count, NULL) < 0) {
		rc = -errno;
		fprintf(err, "%s: could not fill map %s (fd %d): %s\n", progname,
			rows->name, rows->fd, strerror(errno));
	}
	for (size_t i = 0; rc == 0 && i < t->nobjs; i++)
		if (bpf_map_update_elem(objs->fd, &t->keys[i], &t->objs[i], BPF_ANY) < 0) {
			rc = -errno;
			fprintf(err, "%s: could not fill map %s (fd %d): %s\n", progname,
				objs->name, objs->fd, strerror(errno));
		}
	free(idx);
	unwind_tables_free(t);
	return rc;
}

void unwind_tables_free(struct unwind_tables *t)
{
	if (!t)
		return;
	free(t->rows);
	free(t);
}
