/*
 * maps.h -- creating a BPF map with what its type needs of the kernel.
 *
 * Most maps are one bpf_map_create(); local storage (task storage: the
 * thread's own scratch area of sleepable programs) wants BTF for its key
 * and value too.  Used by the loader (rt/load.c) and by kcaps' trial
 * loads, which is why it sits below both.
 */
#ifndef DSCOPE_KERN_MAPS_H
#define DSCOPE_KERN_MAPS_H

#include <bpf/bpf.h>
#include <stdint.h>

/* The map's fd, or -errno. */
int kern_map_create(enum bpf_map_type type, const char *name, uint32_t key_size,
		    uint32_t value_size, uint32_t entries, uint32_t flags);

#endif /* DSCOPE_KERN_MAPS_H */
