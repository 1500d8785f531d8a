/*
 * lockstat.c -- DTrace's lockstat provider on Linux: kernel lock
 * contention, from the lock:contention_begin and contention_end
 * tracepoints (kernel 5.19 and later), lowered (catalog.h).
 *
 * contention_begin(lock, flags) fires when a thread starts waiting for a
 * lock, contention_end(lock, ret) when it stops; flags say what kind of
 * lock and wait it is (include/trace/events/lock.h: LCB_F_SPIN, READ,
 * WRITE, RT, PERCPU, MUTEX).  A mutex begins twice: spinning on its owner
 * (MUTEX|SPIN), then, if that fails, going to sleep (MUTEX), and ends
 * once.  A wait may contain the wait for another lock (a mutex's
 * wait_lock), so the state is kept per thread and lock, in the D
 * library's __ls_* arrays, by the clauses below: the time of the first
 * begin, the time of the begin that slept, and the flags seen.
 *
 * DTrace's probes all fire after the wait, in the waiter, at
 * contention_end, with the lock's address and the time waited:
 *	adaptive-spin   a mutex or rt_mutex spun (arg1: ns spinning)
 *	adaptive-block  a mutex or rt_mutex slept (arg1: ns asleep)
 *	spin-spin       a spinlock spun (arg1: ns)
 *	rw-spin         a rwlock_t spun (arg1: ns; arg2: writer), as in
 *	                Oracle's Linux lockstat
 *	rw-block        an rw_semaphore or percpu_rw_semaphore slept
 *	                (arg1: ns; arg2: writer)
 * One acquisition may fire both adaptive-spin and adaptive-block, the
 * spin time ending where the sleep begins, as illumos records both.
 * No tracepoint shows the acquire, release and downgrade probes
 * (uncontended acquisitions are inline fast paths with no event,
 * lock:lock_acquire exists only under lockdep): derived.c serves those of
 * mutexes and rw_semaphores by fbt where the kernel can, and this file
 * hands their args and refusals to it.  Not offered (lockstat_why_none
 * says so): spin-acquire and spin-release (fbt on _raw_spin_lock and
 * its unlock would see the BPF programs' own map locks, and cost every
 * CPU on every lock), rw-upgrade (Linux has none) and thread-spin.  A
 * wait that began before tracing started is not seen.
 */
#include "prov/lockstat.h"

#include <string.h>

#include "prov/derived.h"
#include "prov/sdt.h"
#include "kern/ktypes.h"

/* Keeps the waits of each thread: pre at contention_begin, post (after
 * the program's clauses) at contention_end.  Flag 0x100 marks a wait
 * seen; 0x200, one whose first begin was a spin. */
static const char lockstat_pre[] =
	"uint64_t __ls_t0[int, uint64_t], __ls_tb[int, uint64_t];\n"
	"uint64_t __ls_fl[int, uint64_t];\n"
	"lockstat:lock::contention_begin\n"
	"{\n"
	"	__ls_t0[tid, arg0] = __ls_t0[tid, arg0] ? __ls_t0[tid, arg0]\n"
	"	    : timestamp;\n"
	"	__ls_tb[tid, arg0] = __ls_tb[tid, arg0] || (arg1 & LCB_F_SPIN)\n"
	"	    ? __ls_tb[tid, arg0] : timestamp;\n"
	"	__ls_fl[tid, arg0] = __ls_fl[tid, arg0] ? __ls_fl[tid, arg0] | arg1\n"
	"	    : arg1 | 0x100 | (arg1 & LCB_F_SPIN ? 0x200 : 0);\n"
	"}\n";
static const char lockstat_post[] =
	"lockstat:lock::contention_end\n"
	"{\n"
	"	__ls_t0[tid, arg0] = 0;\n"
	"	__ls_tb[tid, arg0] = 0;\n"
	"	__ls_fl[tid, arg0] = 0;\n"
	"}\n";

#define LOCK { "void *", "lock", NULL, "__ls_lock", -1 }
static const struct probe_arg spin_args[] = {
	LOCK, { "uint64_t", "spin_ns", NULL, "__ls_spin_ns", -1 },
};
static const struct probe_arg block_args[] = {
	LOCK, { "uint64_t", "block_ns", NULL, "__ls_block_ns", -1 },
};
static const struct probe_arg rw_spin_args[] = {
	LOCK, { "uint64_t", "spin_ns", NULL, "__ls_spin_ns", -1 },
	{ "int", "writer", NULL, "__ls_writer", -1 },
};
static const struct probe_arg rw_block_args[] = {
	LOCK, { "uint64_t", "block_ns", NULL, "__ls_block_ns", -1 },
	{ "int", "writer", NULL, "__ls_writer", -1 },
};

#define ARGS(v) v, (int)(sizeof(v) / sizeof(v[0]))

static const struct {
	const char *name, *guard;
	const struct probe_arg *args;
	int nargs;
} lockstat_probes[] = {	/* in DTrace's listing order */
	{ "adaptive-block", "__ls_is_adaptive_block", ARGS(block_args) },
	{ "adaptive-spin", "__ls_is_adaptive_spin", ARGS(spin_args) },
	{ "rw-block", "__ls_is_rw_block", ARGS(rw_block_args) },
	{ "rw-spin", "__ls_is_rw_spin", ARGS(rw_spin_args) },
	{ "spin-spin", "__ls_is_spin_spin", ARGS(spin_args) },
};

#define NLOCKSTAT (sizeof(lockstat_probes) / sizeof(lockstat_probes[0]))

static struct probe *base_add(struct catalog *cat, const char *event, int nargs)
{
	return catalog_add(cat, &(struct probe){ .kind = PROV_SDT,
		.prov = "lockstat", .mod = "lock", .func = "", .name = event,
		.sysnr = -1, .tp_group = "lock", .tp_event = event,
		.tp_nargs = nargs, .hidden = true });
}

void lockstat_populate(struct catalog *cat)
{
	const struct probe *end;

	base_add(cat, "contention_begin", 2);
	end = base_add(cat, "contention_end", 2);
	for (size_t i = 0; i < NLOCKSTAT; i++)
		catalog_add(cat, &(struct probe){ .kind = PROV_LOCKSTAT,
			    .prov = "lockstat", .mod = "vmlinux", .func = "",
			    .name = lockstat_probes[i].name, .sysnr = -1,
			    .base = end, .guard_inline = lockstat_probes[i].guard,
			    .pre = lockstat_pre, .post = lockstat_post });
}

int lockstat_load_args(struct catalog *cat, struct probe *p)
{
	for (size_t i = 0; i < NLOCKSTAT; i++)
		if (strcmp(lockstat_probes[i].name, p->name) == 0) {
			p->args = lockstat_probes[i].args;
			return p->nargs = lockstat_probes[i].nargs;
		}
	return derived_load_args(cat, p);
}

const char *lockstat_missing(const struct probe *p)
{
	static const char *const events[] = { "contention_begin", "contention_end" };
	static char why[160];
	size_t k = 0;

	while (k < NLOCKSTAT && strcmp(lockstat_probes[k].name, p->name) != 0)
		k++;
	if (k == NLOCKSTAT)
		return derived_missing(p);
	if (!ktype_btf())
		return NULL;
	for (size_t i = 0; i < 2; i++)
		if (sdt_tp_nargs(events[i]) < 0) {
			snprintf(why, sizeof(why), "lockstat:::%s needs the "
				 "lock:%s tracepoint, which this kernel does not "
				 "have", p->name, events[i]);
			return why;
		}
	return NULL;
}

/* DTrace's lockstat probes no kernel here can offer, and why. */
void lockstat_why_none(const struct probe_desc *pd, char *buf, size_t n)
{
	static const struct { const char *name, *why; } never[] = {
		{ "spin-acquire", "fbt on the spinlock calls would trace the "
		  "BPF programs' own map locks and slow every CPU" },
		{ "spin-release", "fbt on the spinlock calls would trace the "
		  "BPF programs' own map locks and slow every CPU" },
		{ "rw-upgrade", "Linux's rw_semaphore has no upgrade" },
		{ "thread-spin", "Linux has no thread locks" },
	};

	if (!pd->name)
		return;
	for (size_t i = 0; i < sizeof(never) / sizeof(never[0]); i++)
		if (strcmp(pd->name, never[i].name) == 0) {
			snprintf(buf, n, "lockstat:::%s is not offered: %s",
				 never[i].name, never[i].why);
			return;
		}
}
