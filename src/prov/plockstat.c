/*
 * plockstat.c -- DTrace's plockstat provider on Linux: a process's
 * pthread mutexes and rwlocks, lowered (catalog.h) onto pid probes of
 * libc's pthread_mutex_* and pthread_rwlock_* functions and the futex
 * system call.  Debian's glibc has no SDT notes in these functions, and
 * none are needed: a call's entry says which lock and how, its return
 * whether it was taken, and a futex wait on the lock's word between them
 * that the thread blocked in the kernel.
 *
 * State per thread (self->__pls_*, kept by the clauses below): the lock
 * of the lock call under way (lk), rwlock or mutex (rw), as a writer
 * (wr), the futex waits it has made (nblk); the lock of the unlock call
 * under way (ulk), whether it releases a write hold (uwr: the rwlock's
 * __cur_writer is this thread).
 *
 * The probes, and their arguments (DTrace's, as far as Linux shows them):
 *	mutex-block    the call's first FUTEX_WAIT (or LOCK_PI) on the mutex
 *	               word; arg0: the mutex
 *	mutex-blocked  at the return of a call that blocked; arg0: the
 *	               mutex, arg1: 1 if it was acquired
 *	mutex-acquire  at the return of a lock call that took it: arg0: the
 *	               mutex, arg1: 1 if the acquisition was recursive (a
 *	               PTHREAD_MUTEX_RECURSIVE mutex already held), arg2: the
 *	               times it blocked first (DTrace's spin count: Linux
 *	               spins out of sight, so 0 means uncontended)
 *	mutex-release  at the return of a successful unlock; arg0, and arg1:
 *	               1 if a recursive mutex is still held
 *	mutex-error    a lock or unlock call failed (pthread_mutex_trylock's
 *	               EBUSY is no error); arg0, arg1: the error number
 *	rw-block, rw-blocked, rw-acquire, rw-release, rw-error: the same for
 *	               rwlocks, with arg1 (block, acquire, release, blocked:
 *	               writer first, then acquired; error: writer, errno) 1
 *	               for a writer, as illumos' probes.
 * The block probes' function field is empty: they fire in the futex
 * system call, whichever lock function made it.
 * Not offered: mutex-spin and mutex-spun (glibc's adaptive mutexes spin
 * inside pthread_mutex_lock with no call or system call to see), and
 * the waits and reacquisitions inside pthread_cond_wait (glibc calls its
 * own internal functions there, not the exported ones probed here).
 */
#include "prov/plockstat.h"

#include <stdio.h>
#include <string.h>
#include <stdlib.h>

#include "base/arena.h"
#include "prov/pid.h"

enum fn_kind { FN_MUTEX, FN_MUTEX_TRY, FN_MUTEX_UNLOCK, FN_RD, FN_RD_TRY,
	       FN_WR, FN_WR_TRY, FN_RW_UNLOCK };

static const struct {
	const char *name;
	enum fn_kind kind;
} functions[] = {
	{ "pthread_mutex_lock", FN_MUTEX },
	{ "pthread_mutex_timedlock", FN_MUTEX },
	{ "pthread_mutex_clocklock", FN_MUTEX },
	{ "pthread_mutex_trylock", FN_MUTEX_TRY },
	{ "pthread_mutex_unlock", FN_MUTEX_UNLOCK },
	{ "pthread_rwlock_rdlock", FN_RD },
	{ "pthread_rwlock_timedrdlock", FN_RD },
	{ "pthread_rwlock_clockrdlock", FN_RD },
	{ "pthread_rwlock_tryrdlock", FN_RD_TRY },
	{ "pthread_rwlock_wrlock", FN_WR },
	{ "pthread_rwlock_timedwrlock", FN_WR },
	{ "pthread_rwlock_clockwrlock", FN_WR },
	{ "pthread_rwlock_trywrlock", FN_WR_TRY },
	{ "pthread_rwlock_unlock", FN_RW_UNLOCK },
};

#define NFUNCTIONS (sizeof(functions) / sizeof(functions[0]))

#define A(type, name, via) { type, name, NULL, via, -1 }
static const struct probe_arg m_block[] = { A("void *", "mutex", "__pls_lock") };
static const struct probe_arg m_blocked[] = {
	A("void *", "mutex", "__pls_lock"), A("int", "acquired", "__pls_acquired") };
static const struct probe_arg m_acquire[] = {
	A("void *", "mutex", "__pls_lock"), A("int", "recursive", "__pls_recursive"),
	A("int", "blocks", "__pls_nblocks") };
static const struct probe_arg m_error[] = {
	A("void *", "mutex", "__pls_lock"), A("int", "errno", "__pls_errno") };
static const struct probe_arg m_release[] = {
	A("void *", "mutex", "__pls_ulock"), A("int", "recursive", "__pls_urecursive") };
static const struct probe_arg m_uerror[] = {
	A("void *", "mutex", "__pls_ulock"), A("int", "errno", "__pls_errno") };
static const struct probe_arg rw_block[] = {
	A("void *", "rwlock", "__pls_lock"), A("int", "writer", "__pls_writer") };
static const struct probe_arg rw_blocked[] = {
	A("void *", "rwlock", "__pls_lock"), A("int", "writer", "__pls_writer"),
	A("int", "acquired", "__pls_acquired") };
static const struct probe_arg rw_error[] = {
	A("void *", "rwlock", "__pls_lock"), A("int", "writer", "__pls_writer"),
	A("int", "errno", "__pls_errno") };
static const struct probe_arg rw_release[] = {
	A("void *", "rwlock", "__pls_ulock"), A("int", "writer", "__pls_uwriter") };
static const struct probe_arg rw_uerror[] = {
	A("void *", "rwlock", "__pls_ulock"), A("int", "writer", "__pls_uwriter"),
	A("int", "errno", "__pls_errno") };

#define ARGS(v) v, (int)(sizeof(v) / sizeof(v[0]))

/* The probes at a function's return, by its kind. */
static const struct lowered {
	unsigned kinds;			/* 1 << enum fn_kind */
	const char *name, *guard;
	const struct probe_arg *args;
	int nargs;
} at_return[] = {
#define LOCKS(a, b) (1u << (a) | 1u << (b))
	{ LOCKS(FN_MUTEX, FN_MUTEX_TRY), "mutex-acquire", "__pls_is_acquire",
	  ARGS(m_acquire) },
	{ 1u << FN_MUTEX, "mutex-blocked", "__pls_is_blocked", ARGS(m_blocked) },
	{ 1u << FN_MUTEX, "mutex-error", "__pls_is_error", ARGS(m_error) },
	{ 1u << FN_MUTEX_TRY, "mutex-error", "__pls_is_try_error", ARGS(m_error) },
	{ 1u << FN_MUTEX_UNLOCK, "mutex-error", "__pls_is_unlock_error",
	  ARGS(m_uerror) },
	{ 1u << FN_MUTEX_UNLOCK, "mutex-release", "__pls_is_release",
	  ARGS(m_release) },
	{ LOCKS(FN_RD, FN_RD_TRY) | LOCKS(FN_WR, FN_WR_TRY), "rw-acquire",
	  "__pls_is_acquire", ARGS(rw_block) },
	{ LOCKS(FN_RD, FN_WR), "rw-blocked", "__pls_is_blocked", ARGS(rw_blocked) },
	{ LOCKS(FN_RD, FN_WR), "rw-error", "__pls_is_error", ARGS(rw_error) },
	{ LOCKS(FN_RD_TRY, FN_WR_TRY), "rw-error", "__pls_is_try_error",
	  ARGS(rw_error) },
	{ 1u << FN_RW_UNLOCK, "rw-error", "__pls_is_unlock_error", ARGS(rw_uerror) },
	{ 1u << FN_RW_UNLOCK, "rw-release", "__pls_is_release", ARGS(rw_release) },
};

static const struct lowered at_futex[] = {
	{ 0, "mutex-block", "__pls_is_mutex_block", ARGS(m_block) },
	{ 0, "rw-block", "__pls_is_rw_block", ARGS(rw_block) },
};

#define NELEMS(v) (sizeof(v) / sizeof(v[0]))

static int first_probe(const struct probe *p, void *arg)
{
	*(const struct probe **)arg = p;
	return -1;
}

static const struct probe *find(struct catalog *cat, const char *prov,
				const char *mod, const char *func, const char *name)
{
	struct probe_desc pd = { .prov = prov, .mod = mod, .func = func, .name = name };
	const struct probe *p = NULL;

	catalog__match(cat, &pd, first_probe, &p);
	return p;
}

/* "plockstat123" -> 123; 0 if pd's provider field is not that */
static long plockstat_pid(const char *prov)
{
	char *end;
	long pid;

	if (!prov || strncmp(prov, "plockstat", 9) != 0 || prov[9] < '1' ||
	    prov[9] > '9')
		return 0;
	pid = strtol(prov + 9, &end, 10);
	return *end ? 0 : pid;
}

/* A D probe description list: "pidN:M:f1:name, pidN:M:f2:name" of the
 * functions of these kinds that libc has. */
static void descs(struct arena *a, char **out, const char *pidprov,
		  const char *mod, const bool *have, unsigned kinds,
		  const char *name)
{
	for (size_t i = 0; i < NFUNCTIONS; i++)
		if (have[i] && (kinds >> functions[i].kind & 1))
			*out = arena_printf(a, "%s%s%s:%s:%s:%s", *out,
					    **out ? ",\n" : "", pidprov, mod,
					    functions[i].name, name);
}

static struct probe *add(struct catalog *cat, const char *prov, const char *mod,
			 const char *func, const struct lowered *l,
			 const struct probe *base, const char *pre,
			 const char *post, long pid)
{
	return catalog_add(cat, &(struct probe){ .kind = PROV_PLOCKSTAT,
		.prov = prov, .mod = mod, .func = func, .name = l->name,
		.sysnr = -1, .upid = (int)pid, .base = base,
		.guard_inline = l->guard, .pre = pre, .post = post });
}

const char *plockstat_provide(struct catalog *cat, const struct probe_desc *pd)
{
	struct arena *a = catalog_arena(cat);
	long pid = plockstat_pid(pd->prov);
	const struct probe *ent[NFUNCTIONS], *ret[NFUNCTIONS];
	bool have[NFUNCTIONS];
	const char *pidprov, *mod = NULL, *prov;
	const struct probe *futex;

	if (!pid || !catalog_pid_module_new(cat, PROV_PLOCKSTAT, pid, "libc"))
		return pd->mod;
	pidprov = arena_printf(a, "pid%ld", pid);
	for (size_t i = 0; i < NFUNCTIONS; i++) {
		ent[i] = find(cat, pidprov, "libc", functions[i].name, "entry");
		ret[i] = find(cat, pidprov, "libc", functions[i].name, "return");
		have[i] = ent[i] && ret[i];
		if (have[i])
			mod = ent[i]->mod;
	}
	futex = find(cat, "syscall", "", "futex", "entry");
	if (!mod || !futex) {
		catalog_set_hint(cat, "plockstat%ld needs libc's pthread_mutex_* "
				 "functions in process %ld and the futex system "
				 "call", pid, pid);
		return pd->mod;
	}
	char *pre = "", *post = "", *d = "";

	/* before the program's clauses: a call begins */
	static const struct { unsigned kinds; const char *body; } starts[] = {
		{ LOCKS(FN_MUTEX, FN_MUTEX_TRY),
		  "self->__pls_lk = arg0; self->__pls_rw = 0; self->__pls_wr = 0;" },
		{ LOCKS(FN_RD, FN_RD_TRY),
		  "self->__pls_lk = arg0; self->__pls_rw = 1; self->__pls_wr = 0;" },
		{ LOCKS(FN_WR, FN_WR_TRY),
		  "self->__pls_lk = arg0; self->__pls_rw = 1; self->__pls_wr = 1;" },
		{ 1u << FN_MUTEX_UNLOCK, "self->__pls_ulk = arg0;" },
		{ 1u << FN_RW_UNLOCK, "self->__pls_ulk = arg0; self->__pls_uwr = "
		  "*(int *)copyin(arg0 + 24, 4) == tid;" },
	};
	pre = "self uint64_t __pls_lk, __pls_ulk;\n"
	      "self int __pls_rw, __pls_wr, __pls_uwr, __pls_nblk;\n";
	for (size_t i = 0; i < NELEMS(starts); i++) {
		d = "";
		descs(a, &d, pidprov, mod, have, starts[i].kinds, "entry");
		if (*d)
			pre = arena_printf(a, "%s%s\n{ %s self->__pls_nblk = 0; }\n",
					   pre, d, starts[i].body);
	}
	/* after them: a wait is counted, a call ends */
	d = "";
	descs(a, &d, pidprov, mod, have, LOCKS(FN_MUTEX, FN_MUTEX_TRY) |
	      LOCKS(FN_RD, FN_RD_TRY) | LOCKS(FN_WR, FN_WR_TRY), "return");
	post = arena_printf(a, "syscall::futex:entry\n/__pls_waits/\n"
			    "{ self->__pls_nblk++; }\n%s\n"
			    "{ self->__pls_lk = 0; self->__pls_nblk = 0; }\n", d);
	d = "";
	descs(a, &d, pidprov, mod, have,
	      1u << FN_MUTEX_UNLOCK | 1u << FN_RW_UNLOCK, "return");
	if (*d)
		post = arena_printf(a, "%s%s\n{ self->__pls_ulk = 0; }\n", post, d);

	prov = arena_printf(a, "plockstat%ld", pid);
	for (size_t i = 0; i < NELEMS(at_futex); i++)
		add(cat, prov, mod, "", &at_futex[i], futex, pre, post, pid);
	for (size_t i = 0; i < NFUNCTIONS; i++)
		for (size_t k = 0; have[i] && k < NELEMS(at_return); k++)
			if (at_return[k].kinds >> functions[i].kind & 1)
				add(cat, prov, mod, functions[i].name, &at_return[k],
				    ret[i], pre, post, pid);
	return pd->mod;
}

int plockstat_load_args(struct catalog *cat, struct probe *p)
{
	const char *func = p->func;
	enum fn_kind kind = FN_MUTEX;

	(void)cat;
	if (!*func) {
		for (size_t k = 0; k < NELEMS(at_futex); k++)
			if (strcmp(at_futex[k].name, p->name) == 0) {
				p->args = at_futex[k].args;
				return p->nargs = at_futex[k].nargs;
			}
		return p->nargs = 0;
	}
	for (size_t i = 0; i < NFUNCTIONS; i++)
		if (strcmp(functions[i].name, func) == 0)
			kind = functions[i].kind;
	for (size_t k = 0; k < NELEMS(at_return); k++)
		if ((at_return[k].kinds >> kind & 1) &&
		    strcmp(at_return[k].name, p->name) == 0) {
			p->args = at_return[k].args;
			return p->nargs = at_return[k].nargs;
		}
	return p->nargs = 0;
}
