/*
 * fbt.c -- function boundary tracing, and why it is not offered here.
 *
 * fbt needs a way into any kernel function: fentry/fexit (a BPF TRACING
 * program on the function's BTF id) or, failing that, kprobes.  The
 * kernels dscope is built on refuse TRACING programs (EPERM) and are
 * built without kprobes (DESIGN.md 1), so every fbt description would
 * match nothing.  Rather than DTrace's bare "does not match any probes",
 * the user is told, in one sentence, which of the two mechanisms failed
 * and how, and what to trace instead: each is tried for real -- a
 * two-instruction fentry program loaded against vfs_read's BTF id, and
 * the kprobe PMU looked up in sysfs -- so a kernel that allows either
 * says so instead of being assumed to.
 *
 * fbt probes themselves are not built: on such a kernel the sentence
 * says that dscope does not offer them yet, which is the truth.
 */
#include "fbt.h"

#include <bpf/bpf.h>
#include <bpf/btf.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "front/ktypes.h"

#define KPROBE_PMU "/sys/bus/event_source/devices/kprobe/type"

/* 0 if a fentry program loads; otherwise the errno (ENOENT: no BTF) */
static int try_fentry(void)
{
	const struct btf *btf = ktype_btf();
	struct bpf_insn insns[] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0 },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	int id, fd, err;

	if (!btf || (id = btf__find_by_name_kind(btf, "vfs_read", BTF_KIND_FUNC)) < 0)
		return ENOENT;
	LIBBPF_OPTS(bpf_prog_load_opts, opts,
		    .expected_attach_type = BPF_TRACE_FENTRY,
		    .attach_btf_id = (uint32_t)id);
	fd = bpf_prog_load(BPF_PROG_TYPE_TRACING, "dscope_fbt_try", "GPL", insns,
			   sizeof(insns) / sizeof(insns[0]), &opts);
	err = errno;
	if (fd < 0)
		return err ? err : EINVAL;
	close(fd);
	return 0;
}

const char *fbt_unavailable(void)
{
	static char why[320];
	static bool decided;
	int fentry;
	bool kprobes;

	if (decided)
		return why[0] ? why : NULL;
	decided = true;
	fentry = try_fentry();
	kprobes = access(KPROBE_PMU, R_OK) == 0;
	if (fentry == 0 || kprobes)
		snprintf(why, sizeof(why), "fbt probes are not offered by dscope yet, "
			 "though this kernel has %s", fentry == 0 ? "fentry" : "kprobes");
	else
		snprintf(why, sizeof(why), "fbt needs fentry, which this kernel %s "
			 "(%s), or kprobes, which it does not have (no kprobe PMU: "
			 "CONFIG_KPROBES is off); trace its tracepoints instead "
			 "(dscope -l -P sdt)",
			 fentry == ENOENT ? "cannot offer without BTF" : "refuses",
			 strerror(fentry));
	return why;
}
