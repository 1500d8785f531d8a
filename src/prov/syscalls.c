/*
 * syscalls.c -- the x86-64 system call table, and which of it this kernel has.
 *
 * Why a table compiled in: DTrace shows syscalls by name, the BPF side
 * dispatches on the number (one raw_syscalls program covers them all), and
 * a running kernel tells neither number for name nor the list of numbers.
 * x86-64 numbers are ABI: never renumbered, never reused, only appended.  The
 * build host's <asm/unistd_64.h> would do, but it trails the kernels dscope
 * runs on (Debian 12's headers stop at 450, this 6.18 kernel goes to 469), so
 * the table is written out here, from the kernel's syscall_64.tbl, and a unit
 * test checks it against the build host's header.  A syscall newer than the
 * table is not offered; add a line.
 *
 * Which entries this kernel implements, best source first:
 *   1. tracefs events/syscalls/sys_enter_<entry>: exactly the syscalls built
 *      in (CONFIG_FTRACE_SYSCALLS), one readdir.
 *   2. BTF: a function __x64_sys_<entry> or (zero-argument syscalls, whose
 *      __x64_sys_ symbol is an alias BTF does not list) __do_sys_<entry>.
 *      A superset: syscalls configured out keep a weak __x64_sys_ stub that
 *      returns -ENOSYS, and BTF cannot tell the stub from the real thing.
 *   3. Neither: the whole table.  Probes on an absent syscall fire on the
 *      -ENOSYS attempt and are otherwise harmless.
 *
 * Names: the DTrace-visible name is the table's (what strace shows: "stat",
 * "sendfile", "umount2"); the kernel's entry point, and so its tracepoint,
 * is sometimes another ("newstat", "sendfile64", "umount").
 */
#include "syscalls.h"

#include <bpf/btf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tracefs.h"

#define NO_ENTRY ""	/* in the table, never implemented on x86-64 */

struct syscall_def {
	int nr;
	const char *name;	/* as strace and DTrace show it */
	const char *entry;	/* kernel entry sys_<entry> when not sys_<name>; or NO_ENTRY */
};

static const struct syscall_def syscall_table[] = {	/* ORDER nr */
	{   0, "read" },
	{   1, "write" },
	{   2, "open" },
	{   3, "close" },
	{   4, "stat", "newstat" },
	{   5, "fstat", "newfstat" },
	{   6, "lstat", "newlstat" },
	{   7, "poll" },
	{   8, "lseek" },
	{   9, "mmap" },
	{  10, "mprotect" },
	{  11, "munmap" },
	{  12, "brk" },
	{  13, "rt_sigaction" },
	{  14, "rt_sigprocmask" },
	{  15, "rt_sigreturn" },
	{  16, "ioctl" },
	{  17, "pread64" },
	{  18, "pwrite64" },
	{  19, "readv" },
	{  20, "writev" },
	{  21, "access" },
	{  22, "pipe" },
	{  23, "select" },
	{  24, "sched_yield" },
	{  25, "mremap" },
	{  26, "msync" },
	{  27, "mincore" },
	{  28, "madvise" },
	{  29, "shmget" },
	{  30, "shmat" },
	{  31, "shmctl" },
	{  32, "dup" },
	{  33, "dup2" },
	{  34, "pause" },
	{  35, "nanosleep" },
	{  36, "getitimer" },
	{  37, "alarm" },
	{  38, "setitimer" },
	{  39, "getpid" },
	{  40, "sendfile", "sendfile64" },
	{  41, "socket" },
	{  42, "connect" },
	{  43, "accept" },
	{  44, "sendto" },
	{  45, "recvfrom" },
	{  46, "sendmsg" },
	{  47, "recvmsg" },
	{  48, "shutdown" },
	{  49, "bind" },
	{  50, "listen" },
	{  51, "getsockname" },
	{  52, "getpeername" },
	{  53, "socketpair" },
	{  54, "setsockopt" },
	{  55, "getsockopt" },
	{  56, "clone" },
	{  57, "fork" },
	{  58, "vfork" },
	{  59, "execve" },
	{  60, "exit" },
	{  61, "wait4" },
	{  62, "kill" },
	{  63, "uname", "newuname" },
	{  64, "semget" },
	{  65, "semop" },
	{  66, "semctl" },
	{  67, "shmdt" },
	{  68, "msgget" },
	{  69, "msgsnd" },
	{  70, "msgrcv" },
	{  71, "msgctl" },
	{  72, "fcntl" },
	{  73, "flock" },
	{  74, "fsync" },
	{  75, "fdatasync" },
	{  76, "truncate" },
	{  77, "ftruncate" },
	{  78, "getdents" },
	{  79, "getcwd" },
	{  80, "chdir" },
	{  81, "fchdir" },
	{  82, "rename" },
	{  83, "mkdir" },
	{  84, "rmdir" },
	{  85, "creat" },
	{  86, "link" },
	{  87, "unlink" },
	{  88, "symlink" },
	{  89, "readlink" },
	{  90, "chmod" },
	{  91, "fchmod" },
	{  92, "chown" },
	{  93, "fchown" },
	{  94, "lchown" },
	{  95, "umask" },
	{  96, "gettimeofday" },
	{  97, "getrlimit" },
	{  98, "getrusage" },
	{  99, "sysinfo" },
	{ 100, "times" },
	{ 101, "ptrace" },
	{ 102, "getuid" },
	{ 103, "syslog" },
	{ 104, "getgid" },
	{ 105, "setuid" },
	{ 106, "setgid" },
	{ 107, "geteuid" },
	{ 108, "getegid" },
	{ 109, "setpgid" },
	{ 110, "getppid" },
	{ 111, "getpgrp" },
	{ 112, "setsid" },
	{ 113, "setreuid" },
	{ 114, "setregid" },
	{ 115, "getgroups" },
	{ 116, "setgroups" },
	{ 117, "setresuid" },
	{ 118, "getresuid" },
	{ 119, "setresgid" },
	{ 120, "getresgid" },
	{ 121, "getpgid" },
	{ 122, "setfsuid" },
	{ 123, "setfsgid" },
	{ 124, "getsid" },
	{ 125, "capget" },
	{ 126, "capset" },
	{ 127, "rt_sigpending" },
	{ 128, "rt_sigtimedwait" },
	{ 129, "rt_sigqueueinfo" },
	{ 130, "rt_sigsuspend" },
	{ 131, "sigaltstack" },
	{ 132, "utime" },
	{ 133, "mknod" },
	{ 134, "uselib", NO_ENTRY },
	{ 135, "personality" },
	{ 136, "ustat" },
	{ 137, "statfs" },
	{ 138, "fstatfs" },
	{ 139, "sysfs" },
	{ 140, "getpriority" },
	{ 141, "setpriority" },
	{ 142, "sched_setparam" },
	{ 143, "sched_getparam" },
	{ 144, "sched_setscheduler" },
	{ 145, "sched_getscheduler" },
	{ 146, "sched_get_priority_max" },
	{ 147, "sched_get_priority_min" },
	{ 148, "sched_rr_get_interval" },
	{ 149, "mlock" },
	{ 150, "munlock" },
	{ 151, "mlockall" },
	{ 152, "munlockall" },
	{ 153, "vhangup" },
	{ 154, "modify_ldt" },
	{ 155, "pivot_root" },
	{ 156, "_sysctl", NO_ENTRY },
	{ 157, "prctl" },
	{ 158, "arch_prctl" },
	{ 159, "adjtimex" },
	{ 160, "setrlimit" },
	{ 161, "chroot" },
	{ 162, "sync" },
	{ 163, "acct" },
	{ 164, "settimeofday" },
	{ 165, "mount" },
	{ 166, "umount2", "umount" },
	{ 167, "swapon" },
	{ 168, "swapoff" },
	{ 169, "reboot" },
	{ 170, "sethostname" },
	{ 171, "setdomainname" },
	{ 172, "iopl" },
	{ 173, "ioperm" },
	{ 174, "create_module", NO_ENTRY },
	{ 175, "init_module" },
	{ 176, "delete_module" },
	{ 177, "get_kernel_syms", NO_ENTRY },
	{ 178, "query_module", NO_ENTRY },
	{ 179, "quotactl" },
	{ 180, "nfsservctl", NO_ENTRY },
	{ 181, "getpmsg", NO_ENTRY },
	{ 182, "putpmsg", NO_ENTRY },
	{ 183, "afs_syscall", NO_ENTRY },
	{ 184, "tuxcall", NO_ENTRY },
	{ 185, "security", NO_ENTRY },
	{ 186, "gettid" },
	{ 187, "readahead" },
	{ 188, "setxattr" },
	{ 189, "lsetxattr" },
	{ 190, "fsetxattr" },
	{ 191, "getxattr" },
	{ 192, "lgetxattr" },
	{ 193, "fgetxattr" },
	{ 194, "listxattr" },
	{ 195, "llistxattr" },
	{ 196, "flistxattr" },
	{ 197, "removexattr" },
	{ 198, "lremovexattr" },
	{ 199, "fremovexattr" },
	{ 200, "tkill" },
	{ 201, "time" },
	{ 202, "futex" },
	{ 203, "sched_setaffinity" },
	{ 204, "sched_getaffinity" },
	{ 205, "set_thread_area", NO_ENTRY },
	{ 206, "io_setup" },
	{ 207, "io_destroy" },
	{ 208, "io_getevents" },
	{ 209, "io_submit" },
	{ 210, "io_cancel" },
	{ 211, "get_thread_area", NO_ENTRY },
	{ 212, "lookup_dcookie", NO_ENTRY },
	{ 213, "epoll_create" },
	{ 214, "epoll_ctl_old", NO_ENTRY },
	{ 215, "epoll_wait_old", NO_ENTRY },
	{ 216, "remap_file_pages" },
	{ 217, "getdents64" },
	{ 218, "set_tid_address" },
	{ 219, "restart_syscall" },
	{ 220, "semtimedop" },
	{ 221, "fadvise64" },
	{ 222, "timer_create" },
	{ 223, "timer_settime" },
	{ 224, "timer_gettime" },
	{ 225, "timer_getoverrun" },
	{ 226, "timer_delete" },
	{ 227, "clock_settime" },
	{ 228, "clock_gettime" },
	{ 229, "clock_getres" },
	{ 230, "clock_nanosleep" },
	{ 231, "exit_group" },
	{ 232, "epoll_wait" },
	{ 233, "epoll_ctl" },
	{ 234, "tgkill" },
	{ 235, "utimes" },
	{ 236, "vserver", NO_ENTRY },
	{ 237, "mbind" },
	{ 238, "set_mempolicy" },
	{ 239, "get_mempolicy" },
	{ 240, "mq_open" },
	{ 241, "mq_unlink" },
	{ 242, "mq_timedsend" },
	{ 243, "mq_timedreceive" },
	{ 244, "mq_notify" },
	{ 245, "mq_getsetattr" },
	{ 246, "kexec_load" },
	{ 247, "waitid" },
	{ 248, "add_key" },
	{ 249, "request_key" },
	{ 250, "keyctl" },
	{ 251, "ioprio_set" },
	{ 252, "ioprio_get" },
	{ 253, "inotify_init" },
	{ 254, "inotify_add_watch" },
	{ 255, "inotify_rm_watch" },
	{ 256, "migrate_pages" },
	{ 257, "openat" },
	{ 258, "mkdirat" },
	{ 259, "mknodat" },
	{ 260, "fchownat" },
	{ 261, "futimesat" },
	{ 262, "newfstatat" },
	{ 263, "unlinkat" },
	{ 264, "renameat" },
	{ 265, "linkat" },
	{ 266, "symlinkat" },
	{ 267, "readlinkat" },
	{ 268, "fchmodat" },
	{ 269, "faccessat" },
	{ 270, "pselect6" },
	{ 271, "ppoll" },
	{ 272, "unshare" },
	{ 273, "set_robust_list" },
	{ 274, "get_robust_list" },
	{ 275, "splice" },
	{ 276, "tee" },
	{ 277, "sync_file_range" },
	{ 278, "vmsplice" },
	{ 279, "move_pages" },
	{ 280, "utimensat" },
	{ 281, "epoll_pwait" },
	{ 282, "signalfd" },
	{ 283, "timerfd_create" },
	{ 284, "eventfd" },
	{ 285, "fallocate" },
	{ 286, "timerfd_settime" },
	{ 287, "timerfd_gettime" },
	{ 288, "accept4" },
	{ 289, "signalfd4" },
	{ 290, "eventfd2" },
	{ 291, "epoll_create1" },
	{ 292, "dup3" },
	{ 293, "pipe2" },
	{ 294, "inotify_init1" },
	{ 295, "preadv" },
	{ 296, "pwritev" },
	{ 297, "rt_tgsigqueueinfo" },
	{ 298, "perf_event_open" },
	{ 299, "recvmmsg" },
	{ 300, "fanotify_init" },
	{ 301, "fanotify_mark" },
	{ 302, "prlimit64" },
	{ 303, "name_to_handle_at" },
	{ 304, "open_by_handle_at" },
	{ 305, "clock_adjtime" },
	{ 306, "syncfs" },
	{ 307, "sendmmsg" },
	{ 308, "setns" },
	{ 309, "getcpu" },
	{ 310, "process_vm_readv" },
	{ 311, "process_vm_writev" },
	{ 312, "kcmp" },
	{ 313, "finit_module" },
	{ 314, "sched_setattr" },
	{ 315, "sched_getattr" },
	{ 316, "renameat2" },
	{ 317, "seccomp" },
	{ 318, "getrandom" },
	{ 319, "memfd_create" },
	{ 320, "kexec_file_load" },
	{ 321, "bpf" },
	{ 322, "execveat" },
	{ 323, "userfaultfd" },
	{ 324, "membarrier" },
	{ 325, "mlock2" },
	{ 326, "copy_file_range" },
	{ 327, "preadv2" },
	{ 328, "pwritev2" },
	{ 329, "pkey_mprotect" },
	{ 330, "pkey_alloc" },
	{ 331, "pkey_free" },
	{ 332, "statx" },
	{ 333, "io_pgetevents" },
	{ 334, "rseq" },
	{ 335, "uretprobe" },
	{ 336, "uprobe" },
	{ 424, "pidfd_send_signal" },
	{ 425, "io_uring_setup" },
	{ 426, "io_uring_enter" },
	{ 427, "io_uring_register" },
	{ 428, "open_tree" },
	{ 429, "move_mount" },
	{ 430, "fsopen" },
	{ 431, "fsconfig" },
	{ 432, "fsmount" },
	{ 433, "fspick" },
	{ 434, "pidfd_open" },
	{ 435, "clone3" },
	{ 436, "close_range" },
	{ 437, "openat2" },
	{ 438, "pidfd_getfd" },
	{ 439, "faccessat2" },
	{ 440, "process_madvise" },
	{ 441, "epoll_pwait2" },
	{ 442, "mount_setattr" },
	{ 443, "quotactl_fd" },
	{ 444, "landlock_create_ruleset" },
	{ 445, "landlock_add_rule" },
	{ 446, "landlock_restrict_self" },
	{ 447, "memfd_secret" },
	{ 448, "process_mrelease" },
	{ 449, "futex_waitv" },
	{ 450, "set_mempolicy_home_node" },
	{ 451, "cachestat" },
	{ 452, "fchmodat2" },
	{ 453, "map_shadow_stack" },
	{ 454, "futex_wake" },
	{ 455, "futex_wait" },
	{ 456, "futex_requeue" },
	{ 457, "statmount" },
	{ 458, "listmount" },
	{ 459, "lsm_get_self_attr" },
	{ 460, "lsm_set_self_attr" },
	{ 461, "lsm_list_modules" },
	{ 462, "mseal" },
	{ 463, "setxattrat" },
	{ 464, "getxattrat" },
	{ 465, "listxattrat" },
	{ 466, "removexattrat" },
	{ 467, "open_tree_attr" },
	{ 468, "file_getattr" },
	{ 469, "file_setattr" },
	{ 470, "listns" },
};

#define NSYSCALLS ((int)(sizeof(syscall_table) / sizeof(syscall_table[0])))

static const char *entry_name(const struct syscall_def *d)
{
	return d->entry ? d->entry : d->name;
}

static bool has_entry(const struct syscall_def *d)
{
	return !d->entry || strcmp(d->entry, NO_ENTRY) != 0;
}

int syscall_nr(const char *name)
{
	for (int i = 0; i < NSYSCALLS; i++)
		if (strcmp(syscall_table[i].name, name) == 0)
			return syscall_table[i].nr;
	return -1;
}

static int cmp_nr(const void *key, const void *elem)
{
	return *(const int *)key - ((const struct syscall_def *)elem)->nr;
}

const char *syscall_name(int nr)
{
	const struct syscall_def *d = bsearch(&nr, syscall_table, NSYSCALLS,
					      sizeof(*d), cmp_nr);

	return d ? d->name : NULL;
}

/* Where the list of implemented syscalls came from; see the top. */
struct avail {
	const char **names;	/* sorted: tracefs "sys_enter_X", or BTF function names */
	int n;
	const char *prefixes[2];	/* an entry is present as prefix+entry */
};

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static bool avail_has(const struct avail *av, const char *entry)
{
	char buf[128];

	if (!av->names)
		return true;
	for (int i = 0; i < 2 && av->prefixes[i]; i++) {
		const char *key = buf;

		snprintf(buf, sizeof(buf), "%s%s", av->prefixes[i], entry);
		if (bsearch(&key, av->names, av->n, sizeof(*av->names), cmp_str))
			return true;
	}
	return false;
}

static bool from_tracefs(struct arena *a, struct avail *av)
{
	int n = tracefs_group_events(a, "syscalls", &av->names);

	if (n <= 0) {
		av->names = NULL;
		return false;
	}
	av->n = n;
	av->prefixes[0] = "sys_enter_";
	return true;
}

static bool is_syscall_func(const char *name)
{
	return strncmp(name, "__x64_sys_", 10) == 0 ||
	       strncmp(name, "__do_sys_", 9) == 0;
}

/* The names of BTF's syscall functions into out (when not NULL); how many. */
static int btf_syscall_funcs(const struct btf *btf, struct arena *a, const char **out)
{
	int n = 0;

	for (unsigned id = 1; id < btf__type_cnt(btf); id++) {
		const struct btf_type *t = btf__type_by_id(btf, id);
		const char *name;

		if (!btf_is_func(t))
			continue;
		name = btf__name_by_offset(btf, t->name_off);
		if (!is_syscall_func(name))
			continue;
		if (out)
			out[n] = arena_strdup(a, name);
		n++;
	}
	return n;
}

static bool from_btf(struct arena *a, struct avail *av)
{
	struct btf *btf = btf__load_vmlinux_btf();

	if (!btf)
		return false;
	av->n = btf_syscall_funcs(btf, a, NULL);
	av->names = arena_alloc(a, (av->n + 1) * sizeof(*av->names));
	btf_syscall_funcs(btf, a, av->names);
	btf__free(btf);
	if (!av->n) {
		av->names = NULL;
		return false;
	}
	qsort(av->names, av->n, sizeof(*av->names), cmp_str);
	av->prefixes[0] = "__x64_sys_";
	av->prefixes[1] = "__do_sys_";
	return true;
}

static void add_probes(struct catalog *cat, const struct syscall_def *d)
{
	struct arena *a = catalog_arena(cat);
	struct probe p = {
		.kind = PROV_SYSCALL, .prov = "syscall", .mod = "vmlinux",
		.func = d->name, .sysnr = d->nr, .tp_group = "syscalls",
	};

	p.name = "entry";
	p.tp_event = arena_printf(a, "sys_enter_%s", entry_name(d));
	catalog_add(cat, &p);
	p.name = "return";
	p.tp_event = arena_printf(a, "sys_exit_%s", entry_name(d));
	catalog_add(cat, &p);
}

void syscalls_populate(struct catalog *cat)
{
	struct arena scratch = { 0 };
	struct avail av = { 0 };

	if (!from_tracefs(&scratch, &av))
		from_btf(&scratch, &av);
	for (int i = 0; i < NSYSCALLS; i++) {
		const struct syscall_def *d = &syscall_table[i];

		if (!has_entry(d) || !avail_has(&av, entry_name(d)))
			continue;
		add_probes(cat, d);
	}
	arena_free(&scratch);
}

static const struct probe_arg return_args[] = { { "long", "ret" } };

int syscalls_load_args(struct catalog *cat, struct probe *p)
{
	struct arena *a = catalog_arena(cat);
	struct tracefs_field *f;
	struct probe_arg *args;
	int n = tracefs_event_fields(a, p->tp_group, p->tp_event, &f), nargs = 0;
	bool entry = strcmp(p->name, "entry") == 0;

	if (n < 0) {
		p->args = entry ? NULL : return_args;
		return p->nargs = entry ? -1 : 1;
	}
	args = arena_alloc(a, (n ? n : 1) * sizeof(*args));
	for (int i = 0; i < n; i++) {
		if (strcmp(f[i].name, "__syscall_nr") == 0)
			continue;
		args[nargs].type = f[i].type;
		args[nargs++].name = f[i].name;
	}
	p->args = args;
	return p->nargs = nargs;
}

/*
 * A string argument is one the tracefs format of sys_enter_X declares
 * "const char *": the kernel's prototype says const char __user * and
 * the format drops the __user (every pointer a system call takes is
 * the user's).  BTF cannot say it: the one function it lists for a
 * system call, __x64_sys_X, takes a pt_regs, and those with the
 * prototype's types (__se_sys_X, __do_sys_X) are inlined.  Two kinds are
 * left out: a "const char *" followed by a size_t is a buffer and its
 * length (write, pwrite64, mq_timedsend), not a NUL-terminated string;
 * and a "char *" is one the kernel writes (read, getcwd), save the few
 * old calls that left out the const (mount, umount, utime, utimes),
 * whose strings are not recorded.
 */
int syscalls_string_args(struct arena *a, const struct probe *p, int *idx, int max)
{
	struct tracefs_field *f;
	int n, k = 0, found = 0;

	if (!p->tp_group || !p->tp_event || strcmp(p->name, "entry") != 0)
		return 0;
	n = tracefs_event_fields(a, p->tp_group, p->tp_event, &f);
	for (int i = 0; i < n && found < max; i++) {
		if (strcmp(f[i].name, "__syscall_nr") == 0)
			continue;
		if (strcmp(f[i].type, "const char *") == 0 &&
		    (i + 1 >= n || strcmp(f[i + 1].type, "size_t") != 0))
			idx[found++] = k;
		k++;
	}
	return found;
}
