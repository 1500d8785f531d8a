/*
 * floor -- attach empty BPF programs (r0 = 0; exit) where the tracers
 * attach theirs, so that their in-kernel and wall-clock costs can be read
 * against the cost of the attachment alone.
 *
 *   floor raw|tp|both
 *
 *   raw   a BPF_PROG_TYPE_RAW_TRACEPOINT program on the raw tracepoint
 *         sys_enter: what dscope uses for every syscall probe (it fires for
 *         every syscall of every process)
 *   tp    a BPF_PROG_TYPE_TRACEPOINT program on the perf tracepoint
 *         syscalls:sys_enter_getppid: what bpftrace uses for
 *         tracepoint:syscalls:sys_enter_getppid
 *
 * Prints "raw PROG_ID" and/or "tp PROG_ID", then "ready" once attached, and
 * stays attached until its standard input reaches end of file.  Every
 * attachment is a file descriptor: exiting detaches them.
 */
#include <bpf/bpf.h>
#include <stdbool.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

static const struct bpf_insn empty[] = {
	{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0, .imm = 0 },
	{ .code = BPF_JMP | BPF_EXIT },
};

static int load_empty(enum bpf_prog_type type, const char *name)
{
	int fd = bpf_prog_load(type, name, "GPL", empty,
			       sizeof(empty) / sizeof(empty[0]), NULL);

	if (fd < 0)
		fprintf(stderr, "floor: loading %s: %s\n", name, strerror(-fd));
	return fd;
}

static unsigned int prog_id(int fd)
{
	struct bpf_prog_info info = { 0 };
	__u32 len = sizeof(info);

	return bpf_obj_get_info_by_fd(fd, &info, &len) == 0 ? info.id : 0;
}

static int attach_raw(void)
{
	int prog = load_empty(BPF_PROG_TYPE_RAW_TRACEPOINT, "floor_raw");

	if (prog < 0)
		return -1;
	if (bpf_raw_tracepoint_open("sys_enter", prog) < 0) {
		fprintf(stderr, "floor: raw tracepoint sys_enter: %s\n",
			strerror(errno));
		return -1;
	}
	printf("raw %u\n", prog_id(prog));
	return 0;
}

static long tracepoint_id(const char *event)
{
	static const char *roots[] = { "/sys/kernel/tracing",
				       "/sys/kernel/debug/tracing" };
	char path[256];

	for (size_t i = 0; i < sizeof(roots) / sizeof(roots[0]); i++) {
		snprintf(path, sizeof(path), "%s/events/%s/id", roots[i], event);
		FILE *f = fopen(path, "r");
		long id;

		if (!f)
			continue;
		if (fscanf(f, "%ld", &id) != 1)
			id = -1;
		fclose(f);
		return id;
	}
	fprintf(stderr, "floor: no id for tracepoint %s (is tracefs mounted?)\n",
		event);
	return -1;
}

/* The way libbpf and bpftrace attach a tracepoint program: one perf event
 * (any CPU will do: the program hangs off the tracepoint itself). */
static int attach_tp(void)
{
	int prog = load_empty(BPF_PROG_TYPE_TRACEPOINT, "floor_tp");
	long id = tracepoint_id("syscalls/sys_enter_getppid");
	struct perf_event_attr attr = {
		.type = PERF_TYPE_TRACEPOINT,
		.size = sizeof(attr),
		.config = id,
		.sample_period = 1,
		.wakeup_events = 1,
	};

	if (prog < 0 || id < 0)
		return -1;
	int pfd = syscall(SYS_perf_event_open, &attr, -1, 0, -1,
			  PERF_FLAG_FD_CLOEXEC);

	if (pfd < 0 || ioctl(pfd, PERF_EVENT_IOC_SET_BPF, prog) < 0 ||
	    ioctl(pfd, PERF_EVENT_IOC_ENABLE, 0) < 0) {
		fprintf(stderr, "floor: tracepoint sys_enter_getppid: %s\n",
			strerror(errno));
		return -1;
	}
	printf("tp %u\n", prog_id(prog));
	return 0;
}

int main(int argc, char **argv)
{
	const char *what = argc == 2 ? argv[1] : "";
	bool raw = !strcmp(what, "raw") || !strcmp(what, "both");
	bool tp = !strcmp(what, "tp") || !strcmp(what, "both");
	char buf[64];

	if (!raw && !tp) {
		fprintf(stderr, "usage: floor raw|tp|both\n");
		return 2;
	}
	if ((raw && attach_raw() < 0) || (tp && attach_tp() < 0))
		return 1;
	printf("ready\n");
	fflush(stdout);
	while (read(0, buf, sizeof(buf)) > 0)
		;
	return 0;
}
