/*
 * maps.c -- creating a BPF map with what its type needs.  See maps.h.
 */
#include "kern/maps.h"

#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include <errno.h>

int kern_map_create(enum bpf_map_type type, const char *name, uint32_t key_size,
		    uint32_t value_size, uint32_t entries, uint32_t flags)
{
	LIBBPF_OPTS(bpf_map_create_opts, opts, .map_flags = flags);
	struct btf *btf = NULL;
	int fd, e;

	/*
	 * Local storage wants BTF of its key and value: an int, and the
	 * value as an array of bytes -- all the kernel checks is their sizes.
	 */
	if (type == BPF_MAP_TYPE_TASK_STORAGE) {
		int key, byte, val = -1;

		if (!(btf = btf__new_empty()))
			return -errno;
		key = btf__add_int(btf, "int", 4, BTF_INT_SIGNED);
		byte = key < 0 ? key : btf__add_int(btf, "char", 1, 0);
		val = byte < 0 ? byte : btf__add_array(btf, key, byte, value_size);
		if (val < 0 || btf__load_into_kernel(btf) < 0) {
			e = errno;
			btf__free(btf);
			return -e;
		}
		opts.btf_fd = (uint32_t)btf__fd(btf);
		opts.btf_key_type_id = (uint32_t)key;
		opts.btf_value_type_id = (uint32_t)val;
	}
	fd = bpf_map_create(type, name, key_size, value_size, entries, &opts);
	e = errno;
	btf__free(btf);		/* the map holds its own reference */
	return fd < 0 ? -e : fd;
}
