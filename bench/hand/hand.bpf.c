/*
 * hand.bpf.c -- the benchmark's five clauses as a careful engineer would
 * write them by hand with libbpf, to measure dscope's generated code
 * against (bench/bench.py's "hand" phase, bench/RESULTS.md).  Built with
 * clang -target bpf when the benchmark is built; nothing of it is part of
 * dscope.
 *
 * Each program sits where dscope puts the same D -- the raw tracepoints
 * sys_enter and sys_exit, which fire for every syscall, testing the
 * number first -- so that the two are compared on the same attachment and
 * only the code differs.  Each does exactly what its D asks and no more:
 * no per-CPU nesting guard, no run state (exit() or END), no scratch
 * area, no drop counters, one map per aggregation.
 *
 *   count      syscall::getppid:entry { @ = count(); }
 *   execname   syscall::getppid:entry { @[execname] = count(); }
 *   falsepred  syscall::getppid:entry /pid == 1/ { @ = count(); }
 *   ustack     syscall::getppid:entry { @[ustack()] = count(); }
 *              (frame pointers: bpf_get_stackid, all a hand-written
 *              program gets without an unwinder of its own)
 *   lat_entry, lat_return
 *              syscall::getppid:entry { self->ts = timestamp; }
 *              syscall::getppid:return /self->ts/ {
 *                      @ = quantize(timestamp - self->ts); self->ts = 0; }
 */
#include <linux/bpf.h>
#include <linux/types.h>
#include <bpf/bpf_helpers.h>

#define NR_GETPPID 110			/* x86-64 */
#define ORIG_AX 120			/* offsetof(struct pt_regs, orig_ax) */

char LICENSE[] SEC("license") = "GPL";

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64);
} total SEC(".maps");

struct comm_key {
	char comm[16];
};

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_HASH);
	__uint(max_entries, 10240);
	__type(key, struct comm_key);
	__type(value, __u64);
} by_comm SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_STACK_TRACE);
	__uint(max_entries, 10240);
	__uint(key_size, sizeof(__u32));
	__uint(value_size, 127 * sizeof(__u64));
} stacks SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_HASH);
	__uint(max_entries, 10240);
	__type(key, __u32);
	__type(value, __u64);
} by_stack SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, 10240);
	__type(key, __u32);
	__type(value, __u64);
} start SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 65);
	__type(key, __u32);
	__type(value, __u64);
} hist SEC(".maps");

/* raw_tp sys_enter: args[0] the registers, args[1] the syscall number */
static __always_inline int is_getppid(struct bpf_raw_tracepoint_args *ctx)
{
	return ctx->args[1] == NR_GETPPID;
}

static __always_inline void add(void *map, const void *key)
{
	__u64 one = 1, *v = bpf_map_lookup_elem(map, key);

	if (v)
		*v += 1;
	else
		bpf_map_update_elem(map, key, &one, BPF_NOEXIST);
}

SEC("raw_tp/sys_enter")
int count(struct bpf_raw_tracepoint_args *ctx)
{
	__u32 zero = 0;
	__u64 *v;

	if (!is_getppid(ctx))
		return 0;
	v = bpf_map_lookup_elem(&total, &zero);
	if (v)
		*v += 1;
	return 0;
}

SEC("raw_tp/sys_enter")
int execname(struct bpf_raw_tracepoint_args *ctx)
{
	struct comm_key k;

	if (!is_getppid(ctx))
		return 0;
	bpf_get_current_comm(k.comm, sizeof(k.comm));
	add(&by_comm, &k);
	return 0;
}

SEC("raw_tp/sys_enter")
int falsepred(struct bpf_raw_tracepoint_args *ctx)
{
	__u32 zero = 0;
	__u64 *v;

	if (!is_getppid(ctx) || bpf_get_current_pid_tgid() >> 32 != 1)
		return 0;
	v = bpf_map_lookup_elem(&total, &zero);
	if (v)
		*v += 1;
	return 0;
}

SEC("raw_tp/sys_enter")
int ustack(struct bpf_raw_tracepoint_args *ctx)
{
	long id;
	__u32 key;

	if (!is_getppid(ctx))
		return 0;
	id = bpf_get_stackid(ctx, &stacks, BPF_F_USER_STACK);
	if (id < 0)
		return 0;
	key = (__u32)id;
	add(&by_stack, &key);
	return 0;
}

SEC("raw_tp/sys_enter")
int lat_entry(struct bpf_raw_tracepoint_args *ctx)
{
	__u32 tid = (__u32)bpf_get_current_pid_tgid();
	__u64 ts;

	if (!is_getppid(ctx))
		return 0;
	ts = bpf_ktime_get_ns();
	bpf_map_update_elem(&start, &tid, &ts, BPF_ANY);
	return 0;
}

/* quantize()'s buckets: 0, then a power of two, as DTrace's (positive
 * values only: a latency) */
static __always_inline __u32 log2_bucket(__u64 v)
{
	__u32 b = 0;

	if (v == 0)
		return 0;
#pragma unroll
	for (int s = 32; s > 0; s >>= 1)
		if (v >> s) {
			v >>= s;
			b += s;
		}
	return b + 1;
}

/* raw_tp sys_exit: args[0] the registers (orig_ax: the number), args[1]
 * the return value */
SEC("raw_tp/sys_exit")
int lat_return(struct bpf_raw_tracepoint_args *ctx)
{
	__u32 tid = (__u32)bpf_get_current_pid_tgid(), b;
	__u64 nr = 0, *ts, *v;

	bpf_probe_read_kernel(&nr, sizeof(nr), (void *)(ctx->args[0] + ORIG_AX));
	if (nr != NR_GETPPID)
		return 0;
	ts = bpf_map_lookup_elem(&start, &tid);
	if (!ts)
		return 0;
	b = log2_bucket(bpf_ktime_get_ns() - *ts);
	bpf_map_delete_elem(&start, &tid);
	v = bpf_map_lookup_elem(&hist, &b);
	if (v)
		*v += 1;
	return 0;
}
