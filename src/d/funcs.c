/*
 * funcs.c -- D's functions, one row each (see funcs.h).  The prototypes
 * are dtrace-utils' (dt_open.c), with the kernel's type names where
 * DTrace writes a module's ("vmlinux`dev_t"); tolower, toupper and
 * strtoll are illumos's.  ORDER: ids by name, dscope's private ones
 * (for the D library) first.
 */
#include "d/funcs.h"

#include <string.h>

#define SUBR(n, p) { n, DFK_SUBR, p, 0, DFS_YES, NULL, NULL }
#define ACTION(n, p, fl) { n, DFK_ACTION, p, fl, DFS_YES, NULL, NULL }
#define AGG(n, p) { n, DFK_AGG, p, 0, DFS_YES, NULL, NULL }
#define PRIVATE(n, p, note) { n, DFK_PRIVATE, p, 0, DFS_LINUX, note, NULL }
#define LINUX(n, k, p, fl, note) { n, k, p, fl, DFS_LINUX, note, NULL }
#define REFUSED(n, k, p, fl, tag, why) { n, k, p, fl, DFS_REFUSED, why, tag }

#define D DFF_DESTRUCTIVE
#define R DFF_DATAREC

/* The sentences of dtrace-utils for what it does not implement either. */
#define UNIMPLEMENTED(name) "unimplemented subroutine: " name
#define NOT_YET(name) name "( ) is not supported by dscope yet"

static const struct dfunc_row rows[DF_NFUNCS] = {
	[DF_BD_DEVT] = PRIVATE("__bd_devt", "int(struct block_device *)",
		"the dev_t of a block device (or 5.10's hd_struct), by BTF"),
	[DF_BD_PARTNO] = PRIVATE("__bd_partno", "int(struct block_device *)",
		"the partition number of a block device, by BTF"),
	[DF_BIO_DEVT] = PRIVATE("__bio_devt", "int(struct bio *)",
		"the dev_t a bio is for"),
	[DF_BIO_DISK] = PRIVATE("__bio_disk", "struct gendisk *(struct bio *)",
		"the disk a bio is for (bi_bdev->bd_disk, or bi_disk)"),
	[DF_BIO_PARTNO] = PRIVATE("__bio_partno", "int(struct bio *)",
		"the partition a bio is for"),
	[DF_CPU_CHIP] = PRIVATE("__cpu_chip", "int(int)",
		"a CPU's package (cpuinfo_t.cpu_chip)"),
	[DF_CPU_LGRP] = PRIVATE("__cpu_lgrp", "int(int)",
		"a CPU's NUMA node (cpuinfo_t.cpu_lgrp)"),
	[DF_CPU_PINFO] = PRIVATE("__cpu_pinfo", "processor_info_t *(int)",
		"a CPU's processor_info_t"),
	[DF_EXECARGS] = PRIVATE("__execargs", "string(struct task_struct *)",
		"the argument area, NULs as spaces; a fault is an error"),
	[DF_MOUNTPOINT] = PRIVATE("__mountpoint", "string(struct vfsmount *)",
		"where a mount is mounted"),
	[DF_PSARGS] = PRIVATE("__psargs", "string(struct task_struct *)",
		"the argument area, NULs as spaces (psinfo_t.pr_psargs)"),
	[DF_RQ_DISK] = PRIVATE("__rq_disk", "struct gendisk *(struct request *)",
		"a request's disk"),
	[DF_TASK_STATE] = PRIVATE("__task_state", "int(struct task_struct *)",
		"a task's state word (__state, or state before 5.14)"),

	[DF_ALLOCA] = SUBR("alloca", "void *(size_t)"),
	[DF_AVG] = AGG("avg", "void(@)"),
	[DF_BASENAME] = SUBR("basename", "string(const char *)"),
	[DF_BCOPY] = SUBR("bcopy", "void(void *, void *, size_t)"),
	[DF_BREAKPOINT] = REFUSED("breakpoint", DFK_ACTION, "void()", D,
		"D_UNSUPPORTED", "breakpoint( ) is not available on Linux: "
		"a BPF program cannot enter the kernel debugger"),
	[DF_CGROUP_PATH] = LINUX("cgroup_path", DFK_ACTION,
		"string(uint64_t)", 0,
		"dscope's: the path of a cgroup id, as the consumer prints it"),
	[DF_CHILL] = ACTION("chill", "void(int)", D),
	[DF_CLEANPATH] = SUBR("cleanpath", "string(const char *)"),
	[DF_CLEAR] = ACTION("clear", "void(@)", R),
	[DF_COMMIT] = ACTION("commit", "void(int)", 0),
	[DF_COPYIN] = SUBR("copyin", "void *(uintptr_t, size_t)"),
	[DF_COPYINSTR] = SUBR("copyinstr", "string(uintptr_t, [size_t])"),
	[DF_COPYINTO] = SUBR("copyinto", "void(uintptr_t, size_t, void *)"),
	[DF_COPYOUT] = { "copyout", DFK_SUBR,
		"void(void *, uintptr_t, size_t)", D, DFS_YES, NULL, NULL },
	[DF_COPYOUTSTR] = { "copyoutstr", DFK_SUBR,
		"void(char *, uintptr_t, size_t)", D, DFS_YES, NULL, NULL },
	[DF_COUNT] = AGG("count", "void()"),
	[DF_D_PATH] = SUBR("d_path", "string(struct path *)"),
	[DF_DDI_PATHNAME] = REFUSED("ddi_pathname", DFK_SUBR,
		"string(void *, int64_t)", 0, "D_FUNC_UNDEF",
		UNIMPLEMENTED("ddi_pathname")),
	[DF_DENORMALIZE] = ACTION("denormalize", "void(@)", R),
	[DF_DIRNAME] = SUBR("dirname", "string(const char *)"),
	[DF_DISCARD] = ACTION("discard", "void(int)", 0),
	[DF_EXIT] = ACTION("exit", "void(int)", R),
	[DF_FREOPEN] = ACTION("freopen", "void(@, ...)", D),
	[DF_FTRUNCATE] = REFUSED("ftruncate", DFK_ACTION, "void()", R,
		"D_UNSUPPORTED", NOT_YET("ftruncate")),
	[DF_FUNC] = ACTION("func", "_symaddr(uintptr_t)", R),
	[DF_GETMAJOR] = LINUX("getmajor", DFK_SUBR, "dev_t(dev_t)", 0,
		"Linux's major number: the dev_t's bits 20 and up"),
	[DF_GETMINOR] = LINUX("getminor", DFK_SUBR, "dev_t(dev_t)", 0,
		"Linux's minor number: the dev_t's low 20 bits"),
	[DF_HTONL] = SUBR("htonl", "uint32_t(uint32_t)"),
	[DF_HTONLL] = SUBR("htonll", "uint64_t(uint64_t)"),
	[DF_HTONS] = SUBR("htons", "uint16_t(uint16_t)"),
	[DF_INDEX] = SUBR("index", "int(const char *, const char *, [int])"),
	[DF_INET_NTOA] = SUBR("inet_ntoa", "string(ipaddr_t *)"),
	[DF_INET_NTOA6] = SUBR("inet_ntoa6", "string(struct in6_addr *, [int])"),
	[DF_INET_NTOP] = SUBR("inet_ntop", "string(int, void *)"),
	[DF_JSTACK] = REFUSED("jstack", DFK_ACTION,
		"stack([uint32_t], [uint32_t])", R, "D_UNSUPPORTED",
		NOT_YET("jstack")),
	[DF_LINK_NTOP] = SUBR("link_ntop", "string(int, void *)"),
	[DF_LLQUANTIZE] = AGG("llquantize",
		"void(@, int32_t, int32_t, int32_t, int32_t, ...)"),
	[DF_LLTOSTR] = SUBR("lltostr", "string(int64_t)"),
	[DF_LQUANTIZE] = AGG("lquantize", "void(@, int32_t, int32_t, ...)"),
	[DF_MAX] = AGG("max", "void(@)"),
	[DF_MIN] = AGG("min", "void(@)"),
	[DF_MOD] = ACTION("mod", "_symaddr(uintptr_t)", R),
	[DF_MSGDSIZE] = REFUSED("msgdsize", DFK_SUBR, "size_t(mblk_t *)", 0,
		"D_FUNC_UNDEF", UNIMPLEMENTED("msgdsize")),
	[DF_MSGSIZE] = REFUSED("msgsize", DFK_SUBR, "size_t(mblk_t *)", 0,
		"D_FUNC_UNDEF", UNIMPLEMENTED("msgsize")),
	[DF_MUTEX_OWNED] = REFUSED("mutex_owned", DFK_SUBR,
		"int(struct mutex *)", 0, "D_UNSUPPORTED",
		NOT_YET("mutex_owned")),
	[DF_MUTEX_OWNER] = REFUSED("mutex_owner", DFK_SUBR,
		"struct task_struct *(struct mutex *)", 0, "D_UNSUPPORTED",
		NOT_YET("mutex_owner")),
	[DF_MUTEX_TYPE_ADAPTIVE] = REFUSED("mutex_type_adaptive", DFK_SUBR,
		"int(struct mutex *)", 0, "D_UNSUPPORTED",
		NOT_YET("mutex_type_adaptive")),
	[DF_MUTEX_TYPE_SPIN] = REFUSED("mutex_type_spin", DFK_SUBR,
		"int(struct mutex *)", 0, "D_UNSUPPORTED",
		NOT_YET("mutex_type_spin")),
	[DF_NORMALIZE] = ACTION("normalize", "void(@, uint64_t)", R),
	[DF_NTOHL] = SUBR("ntohl", "uint32_t(uint32_t)"),
	[DF_NTOHLL] = SUBR("ntohll", "uint64_t(uint64_t)"),
	[DF_NTOHS] = SUBR("ntohs", "uint16_t(uint16_t)"),
	[DF_PANIC] = REFUSED("panic", DFK_ACTION, "void()", D, "D_UNSUPPORTED",
		"panic( ) is not available on Linux: a BPF program cannot "
		"panic the kernel"),
	[DF_PCAP] = REFUSED("pcap", DFK_ACTION, "void(void *, int)", R,
		"D_UNSUPPORTED", NOT_YET("pcap")),
	[DF_PRINT] = ACTION("print", "void(void *)", R),
	[DF_PRINTA] = ACTION("printa", "void(@, ...)", R),
	[DF_PRINTF] = ACTION("printf", "void(string, ...)", R),
	[DF_PROGENYOF] = SUBR("progenyof", "int(pid_t)"),
	[DF_QUANTIZE] = AGG("quantize", "void(@, ...)"),
	[DF_RAISE] = ACTION("raise", "void(int)", D),
	[DF_RAND] = SUBR("rand", "int()"),
	[DF_RINDEX] = SUBR("rindex", "int(const char *, const char *, [int])"),
	[DF_RW_ISWRITER] = REFUSED("rw_iswriter", DFK_SUBR, "int(rwlock_t *)",
		0, "D_UNSUPPORTED", NOT_YET("rw_iswriter")),
	[DF_RW_READ_HELD] = REFUSED("rw_read_held", DFK_SUBR,
		"int(rwlock_t *)", 0, "D_UNSUPPORTED", NOT_YET("rw_read_held")),
	[DF_RW_WRITE_HELD] = REFUSED("rw_write_held", DFK_SUBR,
		"int(rwlock_t *)", 0, "D_UNSUPPORTED", NOT_YET("rw_write_held")),
	[DF_SETOPT] = ACTION("setopt", "void(const char *, [const char *])", R),
	[DF_SPECULATE] = ACTION("speculate", "void(int)", 0),
	[DF_SPECULATION] = SUBR("speculation", "int()"),
	[DF_STACK] = ACTION("stack", "stack([uint32_t])", R),
	[DF_STDDEV] = AGG("stddev", "void(@)"),
	[DF_STOP] = LINUX("stop", DFK_ACTION, "void()", D,
		"SIGSTOP to the current process: Linux has no /proc stop"),
	[DF_STRCHR] = SUBR("strchr", "string(const char *, char)"),
	[DF_STRJOIN] = SUBR("strjoin", "string(const char *, const char *)"),
	[DF_STRLEN] = SUBR("strlen", "size_t(const char *)"),
	[DF_STRRCHR] = SUBR("strrchr", "string(const char *, char)"),
	[DF_STRSTR] = SUBR("strstr", "string(const char *, const char *)"),
	[DF_STRTOK] = SUBR("strtok", "string(const char *, const char *)"),
	[DF_STRTOLL] = REFUSED("strtoll", DFK_SUBR, "int64_t(const char *, [int])",
		0, "D_UNSUPPORTED", NOT_YET("strtoll")),
	[DF_SUBSTR] = SUBR("substr", "string(const char *, int, [int])"),
	[DF_SUM] = AGG("sum", "void(@)"),
	[DF_SYM] = ACTION("sym", "_symaddr(uintptr_t)", R),
	[DF_SYSTEM] = ACTION("system", "void(@, ...)", D),
	[DF_TOLOWER] = SUBR("tolower", "string(const char *)"),
	[DF_TOUPPER] = SUBR("toupper", "string(const char *)"),
	[DF_TRACE] = ACTION("trace", "void(@)", R),
	[DF_TRACEMEM] = ACTION("tracemem", "void(@, size_t, [size_t])", R),
	[DF_TRUNC] = ACTION("trunc", "void(@, [int64_t])", R),
	[DF_UADDR] = ACTION("uaddr", "_usymaddr(uintptr_t)", R),
	[DF_UFUNC] = ACTION("ufunc", "_usymaddr(uintptr_t)", R),
	[DF_UMOD] = ACTION("umod", "_usymaddr(uintptr_t)", R),
	[DF_USTACK] = ACTION("ustack", "stack([uint32_t], [uint32_t])", R),
	[DF_USYM] = ACTION("usym", "_usymaddr(uintptr_t)", R),
};

const struct dfunc_row *dfunc_row(enum dfunc id)
{
	return id > DF_NONE && id < DF_NFUNCS ? &rows[id] : NULL;
}

enum dfunc dfunc_lookup(const char *name)
{
	if (!name)
		return DF_NONE;
	for (int i = DF_NONE + 1; i < DF_NFUNCS; i++)
		if (strcmp(rows[i].name, name) == 0)
			return (enum dfunc)i;
	return DF_NONE;
}

bool dfunc_is_dtrace(enum dfunc id)
{
	return id != DF_NONE && id != DF_CGROUP_PATH &&
	       rows[id].kind != DFK_PRIVATE;
}

static const char *kind_name(const struct dfunc_row *r)
{
	static const char *const names[] = {
		[DFK_SUBR] = "subroutine", [DFK_ACTION] = "action",
		[DFK_AGG] = "aggregating", [DFK_PRIVATE] = "private",
	};

	if (r->flags & DFF_DESTRUCTIVE)
		return r->kind == DFK_SUBR ? "destructive subroutine"
					   : "destructive action";
	return names[r->kind];
}

/* name, kind, prototype, then what dscope does: "yes", "linux: how" or
 * "no: [TAG] sentence" (dscope -vV, beside the kernel's capabilities) */
void dfunc_list(FILE *f)
{
	fprintf(f, "D functions (DTrace's, and dscope's own for its D library):\n");
	for (int i = DF_NONE + 1; i < DF_NFUNCS; i++) {
		const struct dfunc_row *r = &rows[i];

		fprintf(f, "  %-19s %-22s %-48s ", r->name, kind_name(r), r->proto);
		if (r->support == DFS_YES)
			fprintf(f, "yes\n");
		else if (r->support == DFS_LINUX)
			fprintf(f, "linux: %s\n", r->note);
		else
			fprintf(f, "no: [%s] %s\n", r->tag, r->note);
	}
}
