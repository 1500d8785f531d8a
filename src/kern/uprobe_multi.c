/*
 * uprobe_multi.c -- see uprobe_multi.h.  The system's linux/bpf.h may
 * predate uprobe_multi too: the link_create layout here is the kernel's
 * own, written out.
 */
#include "kern/uprobe_multi.h"

#include <errno.h>
#include <linux/bpf.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "spec/spec.h"

#define UPROBE_MULTI_RETURN 1	/* BPF_F_UPROBE_MULTI_RETURN */

/* union bpf_attr for BPF_LINK_CREATE of a uprobe_multi link (6.6+) */
struct uprobe_multi_attr {
	uint32_t prog_fd;
	uint32_t target_fd;
	uint32_t attach_type;
	uint32_t flags;
	uint64_t path;
	uint64_t offsets;
	uint64_t ref_ctr_offsets;
	uint64_t cookies;
	uint32_t cnt;
	uint32_t umflags;
	uint32_t pid;
};

union link_attr {
	struct uprobe_multi_attr um;
	union bpf_attr attr;		/* the size the kernel expects, zeroed */
	char pad[160];
};

int uprobe_link_multi(int prog_fd, const char *path, const uint64_t *offs,
			     const uint64_t *ref_ctrs, const uint64_t *cookies,
			     uint32_t n, bool ret, int pid)
{
	union link_attr a;

	memset(&a, 0, sizeof(a));
	a.um.prog_fd = (uint32_t)prog_fd;
	a.um.attach_type = ATTACH_TYPE_UPROBE_MULTI;
	a.um.path = (uint64_t)(uintptr_t)path;
	a.um.offsets = (uint64_t)(uintptr_t)offs;
	a.um.ref_ctr_offsets = (uint64_t)(uintptr_t)ref_ctrs;
	a.um.cookies = (uint64_t)(uintptr_t)cookies;
	a.um.cnt = n;
	a.um.umflags = ret ? UPROBE_MULTI_RETURN : 0;
	a.um.pid = (uint32_t)pid;
	int fd = (int)syscall(SYS_bpf, BPF_LINK_CREATE, &a, sizeof(a));

	return fd < 0 ? -errno : fd;
}
