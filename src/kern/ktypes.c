/*
 * ktypes.c -- member offsets from the kernel's BTF.  See ktypes.h.
 */
#include "kern/ktypes.h"

#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include <fcntl.h>
#include <pthread.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#define VMLINUX_BTF "/sys/kernel/btf/vmlinux"

/*
 * The kernel's BTF, mapped where the kernel allows it (6.16+): sysfs
 * serves a read a page at a time, so reading its 5 MB takes some 1,300
 * read() calls into a buffer of fresh pages that libbpf then copies
 * again; the mapping is the kernel's own pages, and the copy is the only
 * new memory.  Elsewhere libbpf reads it (or finds a vmlinux on disk).
 */
static struct btf *load_vmlinux_btf(void)
{
	int fd = open(VMLINUX_BTF, O_RDONLY | O_CLOEXEC);
	struct btf *btf = NULL;
	struct stat st;
	void *m;

	if (fd >= 0 && fstat(fd, &st) == 0 && st.st_size > 0 &&
	    (m = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0)) !=
	    MAP_FAILED) {
		btf = btf__new(m, (uint32_t)st.st_size);
		munmap(m, (size_t)st.st_size);
		if (libbpf_get_error(btf))
			btf = NULL;
	}
	if (fd >= 0)
		close(fd);
	return btf ? btf : btf__load_vmlinux_btf();
}

/* The kernel's BTF: process-wide (ktypes.h), loaded once. */
static struct btf *vmlinux_btf;
static pthread_once_t vmlinux_btf_once = PTHREAD_ONCE_INIT;

static void vmlinux_btf_load(void)
{
	struct btf *btf = load_vmlinux_btf();

	vmlinux_btf = libbpf_get_error(btf) ? NULL : btf;
}

const struct btf *ktype_btf(void)
{
	pthread_once(&vmlinux_btf_once, vmlinux_btf_load);
	return vmlinux_btf;
}

bool ktype_is_typedef(const char *name)
{
	const struct btf *btf = ktype_btf();

	return btf && btf__find_by_name_kind(btf, name, BTF_KIND_TYPEDEF) > 0;
}

/* Find member `name` in struct/union type id, looking inside anonymous
 * members; adds its byte offset to *off and returns its type id, or 0. */
static uint32_t find_member(const struct btf *btf, uint32_t id,
			    const char *name, uint32_t *off)
{
	const struct btf_type *t = btf__type_by_id(btf, btf__resolve_type(btf, id));

	if (!t || (!btf_is_struct(t) && !btf_is_union(t)))
		return 0;
	const struct btf_member *m = btf_members(t);

	for (int i = 0; i < btf_vlen(t); i++, m++) {
		const char *mname = btf__name_by_offset(btf, m->name_off);
		uint32_t bit = btf_member_bit_offset(t, (uint32_t)i);

		if (mname && strcmp(mname, name) == 0) {
			*off += bit / 8;
			return m->type;
		}
		if (!mname || !*mname) {
			uint32_t sub = bit / 8;
			uint32_t found = find_member(btf, m->type, name, &sub);

			if (found) {
				*off += sub;
				return found;
			}
		}
	}
	return 0;
}

int ktype_field(const char *path, struct ktype_field *f)
{
	const struct btf *btf = ktype_btf();
	char buf[256], *p, *name;
	uint32_t id;

	if (!btf || strlen(path) >= sizeof(buf))
		return -1;
	strcpy(buf, path);
	p = strchr(buf, '.');
	if (!p)
		return -1;
	*p++ = '\0';
	int sid = btf__find_by_name_kind(btf, buf, BTF_KIND_STRUCT);

	if (sid < 0)
		return -1;
	id = (uint32_t)sid;
	memset(f, 0, sizeof(*f));
	f->nhops = 1;
	while (*p) {
		name = p;
		p += strcspn(p, ".-");
		bool deref = p[0] == '-' && p[1] == '>';
		char sep = *p;

		*p = '\0';
		id = find_member(btf, id, name, &f->off[f->nhops - 1]);
		if (!id)
			return -1;
		if (deref) {
			if (f->nhops == KTYPE_MAX_HOPS)
				return -1;
			const struct btf_type *t =
				btf__type_by_id(btf, btf__resolve_type(btf, id));

			if (!t || !btf_is_ptr(t))
				return -1;
			id = t->type;
			f->nhops++;
			p += 2;
		} else if (sep == '.') {
			p++;
		}
	}
	const struct btf_type *t = btf__type_by_id(btf, btf__resolve_type(btf, id));

	f->size = (uint32_t)btf__resolve_size(btf, id);
	f->is_signed = t && btf_is_int(t) && (btf_int_encoding(t) & BTF_INT_SIGNED);
	return 0;
}

int ktype_func_id(const char *name)
{
	const struct btf *btf = ktype_btf();

	return btf ? btf__find_by_name_kind(btf, name, BTF_KIND_FUNC) : -1;
}

/* Which DATASEC holds VAR id: ".data..percpu" for a per-CPU variable */
static bool var_is_percpu(const struct btf *btf, uint32_t id)
{
	uint32_t n = btf__type_cnt(btf);

	for (uint32_t i = 1; i < n; i++) {
		const struct btf_type *t = btf__type_by_id(btf, i);

		if (!btf_is_datasec(t))
			continue;
		const struct btf_var_secinfo *v = btf_var_secinfos(t);

		for (int k = 0; k < btf_vlen(t); k++, v++)
			if (v->type == id)
				return strcmp(btf__name_by_offset(btf, t->name_off),
					      ".data..percpu") == 0;
	}
	return false;
}

int ktype_var_id(const char *name, bool *percpu)
{
	const struct btf *btf = ktype_btf();
	int id = btf ? btf__find_by_name_kind(btf, name, BTF_KIND_VAR) : -1;

	*percpu = id > 0 && var_is_percpu(btf, (uint32_t)id);
	return id > 0 ? id : -1;
}
