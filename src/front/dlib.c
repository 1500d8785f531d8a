/*
 * dlib.c -- the D library every program sees: DTrace's stable types and
 * translators (psinfo_t, lwpsinfo_t, fileinfo_t), mapped onto Linux's
 * task_struct and struct file, and the inlines built on them (curpsinfo,
 * curlwpsinfo, fds[]).
 *
 * It is D, compiled with the program, so the mapping is readable and
 * changeable without touching the compiler; the things D cannot say
 * are subroutines of dscope's own (d_path: a path walked up the dentry
 * chain; __mountpoint: that walk from a mount's root, where it is
 * mounted; __psargs: the argument area of a process, NULs made spaces,
 * and __execargs, the same with dtrace-utils' faults;
 * __task_state and the block device's __bd_, __bio_ and __rq_ ones:
 * members whose place differs between kernels, chosen by what BTF shows).
 *
 * Members that have no Linux equivalent (Solaris tasks, projects, pools,
 * zones, contracts) are 0, as in Oracle's port.  Members DTrace declares
 * but cannot convert here (pr_size, pr_rssize, pr_oldpri, pr_nice,
 * pr_cpu, pr_argc) are declared without a conversion, so using
 * one is D_XLATE_NOCONV rather than a made-up number.
 *
 * The library's named integers (EINTR, SIGKILL, R_PC, SRUN, IPPROTO_TCP, ...) are a
 * table at the end, looked up by name when a program uses one.
 */
#include "front/dlib.h"

#include <errno.h>
#include <netinet/in.h>
#include <signal.h>
#include <string.h>

#include "spec/spec.h"

const char dlib_text[] =
	"inline long NULL = 0;\n"
	"\n"
	"typedef uint32_t ipaddr_t;\n"
	"typedef struct in6_addr in6_addr_t;\n"
	/* net.d: the first argument of application protocol providers */
	"typedef struct conninfo {\n"
	"	string ci_local;\n"
	"	string ci_remote;\n"
	"	string ci_protocol;\n"
	"} conninfo_t;\n"
	"inline int AF_INET = 2;\n"
	"inline int AF_INET6 = 10;\n"
	"inline int ARPHRD_ETHER = 1;\n"
	"inline int ARPHRD_INFINIBAND = 32;\n"
	"\n"
	/* the types of well-known kernel variables, for `name (sema_ksym.c):
	 * the kernel's BTF describes per-CPU variables only.  The same
	 * declarations hold from 6.1 to 6.18; those that a kernel lacks
	 * (pid_max went into init_pid_ns in 6.14) fail as unknown symbols
	 * when used.  Only struct tags and D's own types: a kernel typedef
	 * here would load the BTF for every program. */
	"extern unsigned long jiffies;\n"
	"extern uint64_t jiffies_64;\n"
	"extern unsigned int nr_cpu_ids;\n"
	"extern unsigned int nr_node_ids;\n"
	"extern unsigned long max_pfn;\n"
	"extern unsigned long totalreserve_pages;\n"
	"extern unsigned long loops_per_jiffy;\n"
	"extern int nr_threads;\n"
	"extern int max_threads;\n"
	"extern unsigned long total_forks;\n"
	"extern int pid_max;\n"
	"extern char *saved_command_line;\n"
	"extern struct cpumask __cpu_possible_mask;\n"
	"extern struct cpumask __cpu_online_mask;\n"
	"extern struct cpumask __cpu_present_mask;\n"
	"extern struct cpumask __cpu_active_mask;\n"
	"extern struct task_struct init_task;\n"
	"extern struct mm_struct init_mm;\n"
	"extern struct uts_namespace init_uts_ns;\n"
	"extern struct pid_namespace init_pid_ns;\n"
	"extern struct net init_net;\n"
	"\n"
	"typedef struct psinfo {\n"
	"	int pr_flag;\n"
	"	int pr_nlwp;\n"
	"	pid_t pr_pid;\n"
	"	pid_t pr_ppid;\n"
	"	pid_t pr_pgid;\n"
	"	pid_t pr_sid;\n"
	"	uid_t pr_uid;\n"
	"	uid_t pr_euid;\n"
	"	gid_t pr_gid;\n"
	"	gid_t pr_egid;\n"
	"	uintptr_t pr_addr;\n"
	"	size_t pr_size;\n"
	"	size_t pr_rssize;\n"
	"	long pr_ttydev;\n"
	"	string pr_fname;\n"
	"	string pr_psargs;\n"
	"	int pr_wstat;\n"
	"	int pr_argc;\n"
	"	uintptr_t pr_argv;\n"
	"	uintptr_t pr_envp;\n"
	"	char pr_dmodel;\n"
	"	int pr_taskid;\n"
	"	int pr_projid;\n"
	"	int pr_nzomb;\n"
	"	int pr_poolid;\n"
	"	uint64_t pr_zoneid;\n"
	"	int pr_contract;\n"
	"} psinfo_t;\n"
	"\n"
	"typedef struct lwpsinfo {\n"
	"	int pr_flag;\n"
	"	int pr_lwpid;\n"
	"	uintptr_t pr_addr;\n"
	"	uintptr_t pr_wchan;\n"
	"	char pr_stype;\n"
	"	char pr_state;\n"
	"	char pr_sname;\n"
	"	char pr_nice;\n"
	"	short pr_syscall;\n"
	"	char pr_oldpri;\n"
	"	char pr_cpu;\n"
	"	int pr_pri;\n"
	"	string pr_clname;\n"
	"	char pr_name[16];\n"
	"	int pr_onpro;\n"
	"	int pr_bindpro;\n"
	"	int pr_bindpset;\n"
	"} lwpsinfo_t;\n"
	"\n"
	"typedef struct fileinfo {\n"
	"	string fi_name;\n"
	"	string fi_dirname;\n"
	"	string fi_pathname;\n"
	"	long fi_offset;\n"
	"	string fi_fs;\n"
	"	string fi_mount;\n"
	"	int fi_oflags;\n"
	"} fileinfo_t;\n"
	"\n"
	"typedef struct bufinfo {\n"
	"	int b_flags;\n"
	"	size_t b_bcount;\n"
	"	caddr_t b_addr;\n"
	"	uint64_t b_blkno;\n"
	"	uint64_t b_lblkno;\n"
	"	size_t b_resid;\n"
	"	size_t b_bufsize;\n"
	"	caddr_t b_iodone;\n"
	"	int b_error;\n"
	"	dev_t b_edev;\n"
	"} bufinfo_t;\n"
	"\n"
	"typedef struct devinfo {\n"
	"	int dev_major;\n"
	"	int dev_minor;\n"
	"	int dev_instance;\n"
	"	string dev_name;\n"
	"	string dev_statname;\n"
	"	string dev_pathname;\n"
	"} devinfo_t;\n"
	"\n"
	"inline int B_BUSY = 0x0001;\n"
	"inline int B_DONE = 0x0002;\n"
	"inline int B_ERROR = 0x0004;\n"
	"inline int B_PAGEIO = 0x0010;\n"
	"inline int B_PHYS = 0x0020;\n"
	"inline int B_READ = 0x0040;\n"
	"inline int B_WRITE = 0x0100;\n"
	"inline int B_ASYNC = 0x0400;\n"
	"\n"
	/* pr_zoneid: the process's cgroup v2 id, the number zonename names
	 * (as the cgroup builtin, but of the task T describes); 64 bits,
	 * not DTrace's int, for a cgroup id is one.
	 * data models: PR_MODEL_ILP32 is 1, _LP64 2; TIF_ADDR32 is bit 29.
	 * The IDs are the objective credentials' (real_cred), which the
	 * kernel's temporary overrides leave alone, as the uid builtin. */
	/*
	 * pr_flag: procfs' PR_* flags, from what Linux knows of them: a
	 * kernel thread (PF_KTHREAD) is a system process, PF_IDLE the idle
	 * thread, a stopped or traced task stopped, a ptrace()d one
	 * PR_PTRACE.  Not the kernel's own PF_* word, which a script testing
	 * pr_flag & PR_ISSYS would read as something else.
	 */
	"inline int __pr_flag[struct task_struct *T] =\n"
	"    (T->flags & 0x00200000 ? PR_ISSYS : 0) |\n"
	"    (T->flags & 0x00000002 ? PR_IDLE : 0) |\n"
	"    (__task_state(T) & 0x0c ? PR_STOPPED : 0) |\n"
	"    (T->ptrace != 0 ? PR_PTRACE : 0);\n"
	"translator psinfo_t < struct task_struct *T > {\n"
	"	pr_flag = __pr_flag[T];\n"
	"	pr_nlwp = T->signal->nr_threads;\n"
	"	pr_pid = T->tgid;\n"
	"	pr_ppid = T->real_parent->tgid;\n"
	"	pr_pgid = T->signal->pids[PIDTYPE_PGID]->numbers[0].nr;\n"
	"	pr_sid = T->signal->pids[PIDTYPE_SID]->numbers[0].nr;\n"
	"	pr_uid = T->real_cred->uid.val;\n"
	"	pr_euid = T->real_cred->euid.val;\n"
	"	pr_gid = T->real_cred->gid.val;\n"
	"	pr_egid = T->real_cred->egid.val;\n"
	"	pr_addr = (uintptr_t)T;\n"
	"	pr_ttydev = T->signal->tty == 0 ? -1 :\n"
	"	    (T->signal->tty->driver->major << 20) |\n"
	"	    (T->signal->tty->driver->minor_start + T->signal->tty->index);\n"
	"	pr_fname = T->comm;\n"
	"	pr_psargs = __psargs(T);\n"
	"	pr_wstat = T->exit_code;\n"
	"	pr_argv = T->mm == 0 ? 0 : T->mm->arg_start;\n"
	"	pr_envp = T->mm == 0 ? 0 : T->mm->env_start;\n"
	"	pr_dmodel = (T->thread_info.flags & (1 << 29)) ?\n"
	"	    PR_MODEL_ILP32 : PR_MODEL_LP64;\n"
	"	pr_taskid = 0;\n"
	"	pr_projid = 0;\n"
	"	pr_nzomb = 0;\n"
	"	pr_poolid = 0;\n"
	"	pr_zoneid = T->cgroups->dfl_cgrp->kn->id;\n"
	"	pr_contract = 0;\n"
	"};\n"
	"\n"
	"translator lwpsinfo_t < struct task_struct *T > {\n"
	"	pr_flag = __pr_flag[T];\n"
	"	pr_lwpid = T->pid;\n"
	"	pr_addr = (uintptr_t)T;\n"
	"	pr_wchan = 0;\n"
	"	pr_stype = 0;\n"
	"	pr_state = T->exit_state & 0x20 ? SZOMB : __task_state(T) & 0x0c ? SSTOP :\n"
	"	    __task_state(T) & 0x03 ? SSLEEP : T->on_cpu ? SONPROC : SRUN;\n"
	"	pr_sname = T->exit_state & 0x20 ? 'Z' : __task_state(T) & 0x0c ? 'T' :\n"
	"	    __task_state(T) & 0x03 ? 'S' : T->on_cpu ? 'O' : 'R';\n"
	"	pr_syscall = 0;\n"
	"	pr_pri = T->prio;\n"
	"	pr_clname = T->policy == 1 || T->policy == 2 ? \"RT\" : \"TS\";\n"
	"	pr_name = T->comm;\n"
	"	pr_onpro = T->thread_info.cpu;\n"
	"	pr_bindpro = -1;\n"
	"	pr_bindpset = -1;\n"
	"};\n"
	"\n"
	"translator fileinfo_t < struct file *F > {\n"
	"	fi_name = F == 0 ? \"<none>\" :\n"
	"	    stringof(F->f_path.dentry->d_name.name);\n"
	"	fi_dirname = F == 0 ? \"<none>\" : dirname(d_path(&F->f_path));\n"
	"	fi_pathname = F == 0 ? \"<none>\" : d_path(&F->f_path);\n"
	"	fi_offset = F == 0 ? 0 : F->f_pos;\n"
	"	fi_fs = F == 0 ? \"<none>\" :\n"
	"	    stringof(F->f_path.mnt->mnt_sb->s_type->name);\n"
	"	fi_mount = F == 0 ? \"<none>\" : __mountpoint(F->f_path.mnt);\n"
	"	fi_oflags = F == 0 ? 0 : F->f_flags;\n"
	"};\n"
	"\n"
	/*
	 * io: a block request.  A request op's low bit says it writes
	 * (op_is_write()).  The completion status is not the request's but
	 * block_rq_complete's own arguments (arg1 the blk_status_t, arg2 the
	 * bytes completed), which the library's argN are: so b_error and
	 * b_resid are those at io:::done and 0 before it, as in DTrace,
	 * where an I/O under way has neither.  (Oracle's port reads its
	 * probe's arg1 in a translator too, for b_flags.)  A partition is
	 * its disk's name and number ("vda1"; "nvme0n1p1" when the disk's
	 * name ends in a digit), as in /dev.
	 */
	/*
	 * b_error is an errno, as DTrace's: the kernel's blk_status_to_errno
	 * table (block/blk-core.c).  blk_status_t's values are #defines, not
	 * in BTF; these have kept their numbers since they were added (the
	 * newest, OFFLINE 17, in 5.18; DURATION_LIMIT 18 in 6.5), and any
	 * other is EIO, as the kernel's own table answers for what it does
	 * not list.
	 */
	"inline int __blk_errno[int S] =\n"
	"    S == 0 ? 0 : S == 1 ? EOPNOTSUPP : S == 2 ? ETIMEDOUT :\n"
	"    S == 3 ? ENOSPC : S == 4 ? ENOLINK : S == 5 ? EREMOTEIO :\n"
	"    S == 6 ? EBADE : S == 7 ? ENODATA : S == 8 ? EILSEQ :\n"
	"    S == 9 ? ENOMEM : S == 12 ? EAGAIN : S == 13 ? EBUSY :\n"
	"    S == 14 || S == 15 ? ETOOMANYREFS : S == 16 ? EOVERFLOW :\n"
	"    S == 17 ? ENODEV : S == 18 ? ETIME : EIO;\n"
	"inline int __io_done = probeprov == \"io\" && probename == \"done\";\n"
	/*
	 * The partition a request is for.  block_io_start fires before the
	 * block layer copies it to R->part (blk_account_io_start), so at
	 * io:::start it is the first bio's; at io:::done the bios may be gone
	 * and R->part holds it.  Both name the same device, so io:::start and
	 * io:::done agree on b_edev and the device names.  What a request and
	 * a bio point to moved between kernels (R->part a block_device, an
	 * hd_struct before 5.11; the disk in bi_bdev since 5.12, in bi_disk
	 * before): the __bd_, __bio_ and __rq_ subroutines read what BTF shows.
	 */
	"inline int __rq_devt[struct request *R] =\n"
	"    R->part != 0 ? __bd_devt(R->part) :\n"
	"    R->bio != 0 ? __bio_devt(R->bio) : 0;\n"
	"translator bufinfo_t < struct request *R > {\n"
	"	b_flags = R->cmd_flags & 1 ? B_WRITE : B_READ;\n"
	"	b_bcount = R->__data_len;\n"
	"	b_addr = 0;\n"
	"	b_blkno = R->__sector;\n"
	"	b_lblkno = R->__sector;\n"
	"	b_bufsize = R->__data_len;\n"
	"	b_iodone = 0;\n"
	"	b_edev = __rq_devt[R];\n"
	"	b_error = __io_done ? __blk_errno[(int)(arg1 & 0xff)] : 0;\n"
	"	b_resid = !__io_done ? 0 : arg1 != 0 ? R->__data_len :\n"
	"	    R->__data_len - arg2;\n"
	"};\n"
	"\n"
	"inline int __partno[struct request *R] =\n"
	"    R->part != 0 ? __bd_partno(R->part) :\n"
	"    R->bio != 0 ? __bio_partno(R->bio) : 0;\n"
	"inline string __diskname[struct request *R] =\n"
	"    __rq_disk(R) == 0 ? \"<none>\" : stringof(__rq_disk(R)->disk_name);\n"
	"inline string __statname[struct request *R] = __partno[R] == 0 ?\n"
	"    __diskname[R] : strjoin(strjoin(__diskname[R],\n"
	"    index(\"0123456789\", substr(__diskname[R], -1)) >= 0 ? \"p\" : \"\"),\n"
	"    lltostr(__partno[R]));\n"
	"translator devinfo_t < struct request *R > {\n"
	"	dev_major = __rq_disk(R) == 0 ? 0 : __rq_disk(R)->major;\n"
	"	dev_minor = __rq_devt[R] & 0xfffff;\n"
	"	dev_instance = __rq_devt[R] & 0xfffff;\n"
	"	dev_name = __diskname[R];\n"
	"	dev_statname = __statname[R];\n"
	"	dev_pathname = strjoin(\"/dev/\", __statname[R]);\n"
	"};\n"
	"\n"
	/* a bio a thread waits for (io:::wait-start, derived.c): bi_iter
	 * still says what it asked for, unless the request it became was
	 * completed piece by piece (then, at wait-done, what is left) */
	"translator bufinfo_t < struct bio *B > {\n"
	"	b_flags = B->bi_opf & 1 ? B_WRITE : B_READ;\n"
	"	b_bcount = B->bi_iter.bi_size;\n"
	"	b_addr = 0;\n"
	"	b_blkno = B->bi_iter.bi_sector;\n"
	"	b_lblkno = B->bi_iter.bi_sector;\n"
	"	b_bufsize = B->bi_iter.bi_size;\n"
	"	b_iodone = 0;\n"
	"	b_edev = __bio_devt(B);\n"
	"};\n"
	"inline string __bio_diskname[struct bio *B] = __bio_disk(B) == 0 ?\n"
	"    \"<none>\" : stringof(__bio_disk(B)->disk_name);\n"
	"inline string __bio_statname[struct bio *B] = __bio_disk(B) == 0 ||\n"
	"    __bio_partno(B) == 0 ? __bio_diskname[B] :\n"
	"    strjoin(strjoin(__bio_diskname[B],\n"
	"    index(\"0123456789\", substr(__bio_diskname[B], -1)) >= 0 ? \"p\" : \"\"),\n"
	"    lltostr(__bio_partno(B)));\n"
	"translator devinfo_t < struct bio *B > {\n"
	"	dev_major = __bio_disk(B) == 0 ? 0 : __bio_disk(B)->major;\n"
	"	dev_minor = __bio_devt(B) & 0xfffff;\n"
	"	dev_instance = __bio_devt(B) & 0xfffff;\n"
	"	dev_name = __bio_diskname[B];\n"
	"	dev_statname = __bio_statname[B];\n"
	"	dev_pathname = strjoin(\"/dev/\", __bio_statname[B]);\n"
	"};\n"
	"\n"
	"inline psinfo_t *curpsinfo = xlate <psinfo_t *> (curthread);\n"
	"inline lwpsinfo_t *curlwpsinfo = xlate <lwpsinfo_t *> (curthread);\n"
	/*
	 * curcpu: the CPU the probe fired on.  Processor sets do not exist
	 * on Linux (-1, as in Oracle's port); the chip is the CPU's package
	 * (physical_package_id in sysfs), the locality group its NUMA node
	 * (lgroups are Solaris' NUMA nodes).  cpu_info is what the runtime
	 * reads of each CPU when tracing starts (attach.c): pi_state
	 * P_ONLINE (2) or P_OFFLINE (1), pi_processor_type the machine
	 * (uname -m), pi_fputypes "i387 compatible" on x86 as on Solaris,
	 * and pi_clock its MHz (/proc/cpuinfo), as psrinfo -v shows them.
	 */
	"typedef struct processor_info {\n"
	"	int pi_state;\n"
	"	char pi_processor_type[16];\n"
	"	char pi_fputypes[32];\n"
	"	int pi_clock;\n"
	"} processor_info_t;\n"
	"typedef struct cpuinfo {\n"
	"	processorid_t cpu_id;\n"
	"	psetid_t cpu_pset;\n"
	"	chipid_t cpu_chip;\n"
	"	lgrp_id_t cpu_lgrp;\n"
	"	processor_info_t cpu_info;\n"
	"} cpuinfo_t;\n"
	"translator cpuinfo_t < int C > {\n"
	"	cpu_id = C;\n"
	"	cpu_pset = -1;\n"
	"	cpu_chip = __cpu_chip(C);\n"
	"	cpu_lgrp = __cpu_lgrp(C);\n"
	"	cpu_info = *__cpu_pinfo(C);\n"
	"};\n"
	"inline cpuinfo_t *curcpu = xlate <cpuinfo_t *> (cpu);\n"
	"inline chipid_t chip = curcpu->cpu_chip;\n"
	"inline lgrp_id_t lgrp = curcpu->cpu_lgrp;\n"
	"inline psetid_t pset = curcpu->cpu_pset;\n"
	/* the current thread's working and root directories (procfs.d) */
	"inline string cwd = d_path(&curthread->fs->pwd);\n"
	"inline string root = d_path(&curthread->fs->root);\n"
	/* dtrace-utils' execargs: the process's arguments, joined by spaces */
	"inline string execargs = __execargs(curthread);\n"
	/* the arguments of the sched and proc providers (stable.c) */
	"inline lwpsinfo_t *__lwpsinfo[struct task_struct *T] =\n"
	"    xlate <lwpsinfo_t *> (T);\n"
	"inline psinfo_t *__psinfo[struct task_struct *T] = xlate <psinfo_t *> (T);\n"
	"inline int __exit_reason[struct task_struct *T] =\n"
	"    (T->exit_code & 0x7f) == 0 ? CLD_EXITED :\n"
	"    (T->exit_code & 0x80) ? CLD_DUMPED : CLD_KILLED;\n"
	"inline int __errno_of[long R] = (int)-R;\n"
	"inline bufinfo_t *__bufinfo[struct request *R] = xlate <bufinfo_t *> (R);\n"
	"inline devinfo_t *__devinfo[struct request *R] = xlate <devinfo_t *> (R);\n"
	"inline fileinfo_t *__nofileinfo[struct request *R] =\n"
	"    xlate <fileinfo_t *> ((struct file *)0);\n"
	/* proc:::exec (stable.c): the path asked for, the kernel's copy at
	 * sched_prepare_exec; at sys_enter or sys_exit, the caller's, from
	 * execve(path, ...) or execveat(fd, path, ...); at sys_exit, only an
	 * attempt that failed before sched_prepare_exec */
	"inline string __bprm_filename[struct linux_binprm *B] =\n"
	"    stringof(B->filename);\n"
	"inline int __exec_failed_unprepared = (long)arg1 < 0 &&\n"
	"    !self->__exec_prepared;\n"
	"inline string __exec_path[struct pt_regs *R] =\n"
	"    copyinstr(R->orig_ax == 322 ? R->si : R->di);\n"
	"inline fileinfo_t fds[int fd] = xlate <fileinfo_t> (\n"
	"    fd >= 0 && fd < curthread->files->fdt->max_fds ?\n"
	"    curthread->files->fdt->fd[fd] : (struct file *)0);\n"
	/*
	 * The network providers (prov/net.c): DTrace's ip.d, tcp.d and
	 * udp.d types; TCP_STATE_* are Linux's TCP_* values, as in Oracle's
	 * port, so a state is the socket's own.
	 */
	"typedef uint64_t netstackid_t;\n"
	"typedef struct pktinfo {\n"
	"	uintptr_t pkt_addr;\n"
	"} pktinfo_t;\n"
	"typedef struct csinfo {\n"
	"	uintptr_t cs_addr;\n"
	"	uint64_t cs_cid;\n"
	"} csinfo_t;\n"
	"typedef struct ipinfo {\n"
	"	uint8_t ip_ver;\n"
	"	uint32_t ip_plength;\n"
	"	string ip_saddr;\n"
	"	string ip_daddr;\n"
	"} ipinfo_t;\n"
	"typedef struct ifinfo {\n"
	"	string if_name;\n"
	"	int8_t if_local;\n"
	"	netstackid_t if_ipstack;\n"
	"	uintptr_t if_addr;\n"
	"} ifinfo_t;\n"
	"typedef struct ipv4info {\n"
	"	uint8_t ipv4_ver;\n"
	"	uint8_t ipv4_ihl;\n"
	"	uint8_t ipv4_tos;\n"
	"	uint16_t ipv4_length;\n"
	"	uint16_t ipv4_ident;\n"
	"	uint8_t ipv4_flags;\n"
	"	uint16_t ipv4_offset;\n"
	"	uint8_t ipv4_ttl;\n"
	"	uint8_t ipv4_protocol;\n"
	"	string ipv4_protostr;\n"
	"	uint16_t ipv4_checksum;\n"
	"	ipaddr_t ipv4_src;\n"
	"	ipaddr_t ipv4_dst;\n"
	"	string ipv4_saddr;\n"
	"	string ipv4_daddr;\n"
	"	struct iphdr *ipv4_hdr;\n"
	"} ipv4info_t;\n"
	"typedef struct ipv6info {\n"
	"	uint8_t ipv6_ver;\n"
	"	uint8_t ipv6_tclass;\n"
	"	uint32_t ipv6_flow;\n"
	"	uint16_t ipv6_plen;\n"
	"	uint8_t ipv6_nexthdr;\n"
	"	string ipv6_nextstr;\n"
	"	uint8_t ipv6_hlim;\n"
	"	struct in6_addr *ipv6_src;\n"
	"	struct in6_addr *ipv6_dst;\n"
	"	string ipv6_saddr;\n"
	"	string ipv6_daddr;\n"
	"	struct ipv6hdr *ipv6_hdr;\n"
	"} ipv6info_t;\n"
	"typedef struct tcpinfo {\n"
	"	uint16_t tcp_sport;\n"
	"	uint16_t tcp_dport;\n"
	"	uint32_t tcp_seq;\n"
	"	uint32_t tcp_ack;\n"
	"	uint8_t tcp_offset;\n"
	"	uint8_t tcp_flags;\n"
	"	uint16_t tcp_window;\n"
	"	uint16_t tcp_checksum;\n"
	"	uint16_t tcp_urgent;\n"
	"	struct tcphdr *tcp_hdr;\n"
	"} tcpinfo_t;\n"
	"typedef struct tcpsinfo {\n"
	"	uintptr_t tcps_addr;\n"
	"	int tcps_local;\n"
	"	int tcps_active;\n"
	"	uint16_t tcps_lport;\n"
	"	uint16_t tcps_rport;\n"
	"	string tcps_laddr;\n"
	"	string tcps_raddr;\n"
	"	int32_t tcps_state;\n"
	"	uint32_t tcps_iss;\n"
	"	uint32_t tcps_irs;\n"
	"	uint32_t tcps_suna;\n"
	"	uint32_t tcps_smax;\n"
	"	uint32_t tcps_snxt;\n"
	"	uint32_t tcps_rack;\n"
	"	uint32_t tcps_rnxt;\n"
	"	uint32_t tcps_swnd;\n"
	"	int32_t tcps_snd_ws;\n"
	"	uint32_t tcps_rwnd;\n"
	"	int32_t tcps_rcv_ws;\n"
	"	uint32_t tcps_cwnd;\n"
	"	uint32_t tcps_cwnd_ssthresh;\n"
	"	uint32_t tcps_sack_fack;\n"
	"	uint32_t tcps_sack_snxt;\n"
	"	uint32_t tcps_rto;\n"
	"	uint32_t tcps_mss;\n"
	"	int tcps_retransmit;\n"
	"	uint32_t tcps_rtt;\n"
	"	uint32_t tcps_rtt_sd;\n"
	"} tcpsinfo_t;\n"
	"typedef struct tcplsinfo {\n"
	"	int32_t tcps_state;\n"
	"} tcplsinfo_t;\n"
	"typedef struct udpinfo {\n"
	"	uint16_t udp_sport;\n"
	"	uint16_t udp_dport;\n"
	"	uint16_t udp_length;\n"
	"	uint16_t udp_checksum;\n"
	"	struct udphdr *udp_hdr;\n"
	"} udpinfo_t;\n"
	"typedef struct udpsinfo {\n"
	"	uintptr_t udps_addr;\n"
	"	uint16_t udps_lport;\n"
	"	uint16_t udps_rport;\n"
	"	string udps_laddr;\n"
	"	string udps_raddr;\n"
	"} udpsinfo_t;\n"
	"inline int TH_FIN = 0x01;\n"
	"inline int TH_SYN = 0x02;\n"
	"inline int TH_RST = 0x04;\n"
	"inline int TH_PUSH = 0x08;\n"
	"inline int TH_ACK = 0x10;\n"
	"inline int TH_URG = 0x20;\n"
	"inline int TH_ECE = 0x40;\n"
	"inline int TH_CWR = 0x80;\n"
	"inline int32_t TCP_STATE_IDLE = 0;\n"
	"inline int32_t TCP_STATE_ESTABLISHED = 1;\n"
	"inline int32_t TCP_STATE_SYN_SENT = 2;\n"
	"inline int32_t TCP_STATE_SYN_RECEIVED = 3;\n"
	"inline int32_t TCP_STATE_FIN_WAIT_1 = 4;\n"
	"inline int32_t TCP_STATE_FIN_WAIT_2 = 5;\n"
	"inline int32_t TCP_STATE_TIME_WAIT = 6;\n"
	"inline int32_t TCP_STATE_CLOSED = 7;\n"
	"inline int32_t TCP_STATE_CLOSE_WAIT = 8;\n"
	"inline int32_t TCP_STATE_LAST_ACK = 9;\n"
	"inline int32_t TCP_STATE_LISTEN = 10;\n"
	"inline int32_t TCP_STATE_CLOSING = 11;\n"
	"inline string tcp_state_string[int32_t state] =\n"
	"    state == TCP_STATE_CLOSED ? \"state-closed\" :\n"
	"    state == TCP_STATE_IDLE ? \"state-idle\" :\n"
	"    state == TCP_STATE_LISTEN ? \"state-listen\" :\n"
	"    state == TCP_STATE_SYN_SENT ? \"state-syn-sent\" :\n"
	"    state == TCP_STATE_SYN_RECEIVED ? \"state-syn-received\" :\n"
	"    state == TCP_STATE_ESTABLISHED ? \"state-established\" :\n"
	"    state == TCP_STATE_CLOSE_WAIT ? \"state-close-wait\" :\n"
	"    state == TCP_STATE_FIN_WAIT_1 ? \"state-fin-wait-1\" :\n"
	"    state == TCP_STATE_CLOSING ? \"state-closing\" :\n"
	"    state == TCP_STATE_LAST_ACK ? \"state-last-ack\" :\n"
	"    state == TCP_STATE_FIN_WAIT_2 ? \"state-fin-wait-2\" :\n"
	"    state == TCP_STATE_TIME_WAIT ? \"state-time-wait\" : \"<unknown>\";\n"
	/*
	 * Their translators.  A packet probe's one argument is the skb; its
	 * IP header is at skb->data where packets come in (the stack has not
	 * set network_header yet), at network_header going out; its local end
	 * is the source going out, the destination coming in (__net_inbound,
	 * a constant of each probe).  The connection is the skb's socket when
	 * that is a full TCP socket of the packet's local port (not a request
	 * or time-wait sock, nor the control sock that sends RSTs); packets
	 * coming in have none yet: tcps_addr is 0, tcps_state -1, the socket's
	 * members 0.  tcps_local and if_local: a loopback device (IFF_LOOPBACK).
	 * Members DTrace has and Linux cannot say (tcps_active, tcps_iss,
	 * tcps_irs, tcps_smax, tcps_rack, the window scales, SACK, tcps_rto,
	 * tcps_retransmit) have no conversion, as pr_size in psinfo_t.
	 */
	"translator pktinfo_t < struct sk_buff *S > {\n"
	"	pkt_addr = (uintptr_t)S;\n"
	"};\n"
	"translator csinfo_t < struct sock *K > {\n"
	"	cs_addr = (uintptr_t)K;\n"
	"	cs_cid = (uint64_t)K;\n"
	"};\n"
	"translator ifinfo_t < struct net_device *N > {\n"
	"	if_name = stringof(N->name);\n"
	"	if_local = (N->flags & 8) != 0;\n"
	"	if_ipstack = (netstackid_t)N->nd_net.net;\n"
	"	if_addr = (uintptr_t)N;\n"
	"};\n"
	"inline uint8_t *__iph[struct sk_buff *S] = __net_inbound ?\n"
	"    (uint8_t *)S->data : (uint8_t *)S->head + S->network_header;\n"
	"inline int __ipv[uint8_t *H] = *H >> 4;\n"
	"inline uint8_t *__l4h[struct sk_buff *S] =\n"
	"    __iph[S] + (__ipv[__iph[S]] == 4 ? (*__iph[S] & 0xf) << 2 : 40);\n"
	"inline struct iphdr *__ip4[struct sk_buff *S] = (struct iphdr *)__iph[S];\n"
	"inline struct ipv6hdr *__ip6[struct sk_buff *S] = (struct ipv6hdr *)__iph[S];\n"
	"inline uint16_t __lport[struct sk_buff *S] =\n"
	"    ntohs(*(uint16_t *)(__l4h[S] + (__net_inbound ? 2 : 0)));\n"
	"inline uint16_t __rport[struct sk_buff *S] =\n"
	"    ntohs(*(uint16_t *)(__l4h[S] + (__net_inbound ? 0 : 2)));\n"
	"inline string __laddr[struct sk_buff *S] = __ipv[__iph[S]] == 4 ?\n"
	"    inet_ntoa((ipaddr_t *)(__net_inbound ? &__ip4[S]->daddr : &__ip4[S]->saddr)) :\n"
	"    inet_ntoa6(__net_inbound ? &__ip6[S]->daddr : &__ip6[S]->saddr);\n"
	"inline string __raddr[struct sk_buff *S] = __ipv[__iph[S]] == 4 ?\n"
	"    inet_ntoa((ipaddr_t *)(__net_inbound ? &__ip4[S]->saddr : &__ip4[S]->daddr)) :\n"
	"    inet_ntoa6(__net_inbound ? &__ip6[S]->saddr : &__ip6[S]->daddr);\n"
	"translator ipinfo_t < struct sk_buff *S > {\n"
	"	ip_ver = __ipv[__iph[S]];\n"
	"	ip_plength = __ipv[__iph[S]] == 4 ?\n"
	"	    ntohs(__ip4[S]->tot_len) - (__l4h[S] - __iph[S]) :\n"
	"	    ntohs(__ip6[S]->payload_len);\n"
	"	ip_saddr = __net_inbound ? __raddr[S] : __laddr[S];\n"
	"	ip_daddr = __net_inbound ? __laddr[S] : __raddr[S];\n"
	"};\n"
	"translator ipv4info_t < struct iphdr *I > {\n"
	"	ipv4_ver = I == 0 ? 0 : 4;\n"
	"	ipv4_ihl = I == 0 ? 0 : (*(uint8_t *)I & 0xf) << 2;\n"
	"	ipv4_tos = I == 0 ? 0 : I->tos;\n"
	"	ipv4_length = I == 0 ? 0 : ntohs(I->tot_len);\n"
	"	ipv4_ident = I == 0 ? 0 : ntohs(I->id);\n"
	"	ipv4_flags = I == 0 ? 0 : ntohs(I->frag_off) >> 13;\n"
	"	ipv4_offset = I == 0 ? 0 : (ntohs(I->frag_off) & 0x1fff) << 3;\n"
	"	ipv4_ttl = I == 0 ? 0 : I->ttl;\n"
	"	ipv4_protocol = I == 0 ? 0 : I->protocol;\n"
	"	ipv4_protostr = I == 0 ? \"<null>\" : __protostr[I->protocol];\n"
	"	ipv4_checksum = I == 0 ? 0 : ntohs(I->check);\n"
	"	ipv4_src = I == 0 ? 0 : I->saddr;\n"
	"	ipv4_dst = I == 0 ? 0 : I->daddr;\n"
	"	ipv4_saddr = I == 0 ? \"<null>\" : inet_ntoa((ipaddr_t *)&I->saddr);\n"
	"	ipv4_daddr = I == 0 ? \"<null>\" : inet_ntoa((ipaddr_t *)&I->daddr);\n"
	"	ipv4_hdr = I;\n"
	"};\n"
	"translator ipv6info_t < struct ipv6hdr *I > {\n"
	"	ipv6_ver = I == 0 ? 0 : 6;\n"
	"	ipv6_tclass = I == 0 ? 0 :\n"
	"	    (((uint8_t *)I)[0] & 0xf) << 4 | ((uint8_t *)I)[1] >> 4;\n"
	"	ipv6_flow = I == 0 ? 0 : (((uint8_t *)I)[1] & 0xf) << 16 |\n"
	"	    ((uint8_t *)I)[2] << 8 | ((uint8_t *)I)[3];\n"
	"	ipv6_plen = I == 0 ? 0 : ntohs(I->payload_len);\n"
	"	ipv6_nexthdr = I == 0 ? 0 : I->nexthdr;\n"
	"	ipv6_nextstr = I == 0 ? \"<null>\" : __protostr[I->nexthdr];\n"
	"	ipv6_hlim = I == 0 ? 0 : I->hop_limit;\n"
	"	ipv6_src = I == 0 ? 0 : &I->saddr;\n"
	"	ipv6_dst = I == 0 ? 0 : &I->daddr;\n"
	"	ipv6_saddr = I == 0 ? \"<null>\" : inet_ntoa6(&I->saddr);\n"
	"	ipv6_daddr = I == 0 ? \"<null>\" : inet_ntoa6(&I->daddr);\n"
	"	ipv6_hdr = I;\n"
	"};\n"
	"inline string __protostr[int P] =\n"
	"    P == IPPROTO_TCP ? \"TCP\" : P == IPPROTO_UDP ? \"UDP\" :\n"
	"    P == IPPROTO_ICMP ? \"ICMP\" : P == IPPROTO_ICMPV6 ? \"ICMPv6\" :\n"
	"    P == IPPROTO_IGMP ? \"IGMP\" : P == IPPROTO_IPV6 ? \"IPv6\" :\n"
	"    P == IPPROTO_ROUTING ? \"ROUTE\" : P == IPPROTO_ESP ? \"ESP\" :\n"
	"    P == IPPROTO_AH ? \"AH\" : P == IPPROTO_SCTP ? \"SCTP\" :\n"
	"    P == IPPROTO_RAW ? \"RAW\" : lltostr(P);\n"
	"translator tcpinfo_t < struct tcphdr *T > {\n"
	"	tcp_sport = ntohs(T->source);\n"
	"	tcp_dport = ntohs(T->dest);\n"
	"	tcp_seq = ntohl(T->seq);\n"
	"	tcp_ack = ntohl(T->ack_seq);\n"
	"	tcp_offset = (((uint8_t *)T)[12] & 0xf0) >> 2;\n"
	"	tcp_flags = ((uint8_t *)T)[13];\n"
	"	tcp_window = ntohs(T->window);\n"
	"	tcp_checksum = ntohs(T->check);\n"
	"	tcp_urgent = ntohs(T->urg_ptr);\n"
	"	tcp_hdr = T;\n"
	"};\n"
	"inline struct tcp_sock *__tcpsk[struct sk_buff *S] = S->sk != 0 &&\n"
	"    S->sk->__sk_common.skc_state != TCP_STATE_TIME_WAIT &&\n"
	"    S->sk->__sk_common.skc_state != 12 && S->sk->sk_protocol == IPPROTO_TCP &&\n"
	"    S->sk->__sk_common.skc_num == __lport[S] ?\n"
	"    (struct tcp_sock *)S->sk : (struct tcp_sock *)0;\n"
	"translator tcpsinfo_t < struct sk_buff *S > {\n"
	"	tcps_addr = (uintptr_t)__tcpsk[S];\n"
	"	tcps_local = (S->dev->flags & 8) != 0;\n"
	"	tcps_lport = __lport[S];\n"
	"	tcps_rport = __rport[S];\n"
	"	tcps_laddr = __laddr[S];\n"
	"	tcps_raddr = __raddr[S];\n"
	"	tcps_state = __tcpsk[S] != 0 ? S->sk->__sk_common.skc_state :\n"
	"	    S->sk != 0 && S->sk->__sk_common.skc_state == 12 ?\n"
	"	    TCP_STATE_SYN_RECEIVED : S->sk != 0 &&\n"
	"	    S->sk->__sk_common.skc_state == TCP_STATE_TIME_WAIT ?\n"
	"	    TCP_STATE_TIME_WAIT : -1;\n"
	"	tcps_suna = __tcpsk[S] == 0 ? 0 : __tcpsk[S]->snd_una;\n"
	"	tcps_snxt = __tcpsk[S] == 0 ? 0 : __tcpsk[S]->snd_nxt;\n"
	"	tcps_rnxt = __tcpsk[S] == 0 ? 0 : __tcpsk[S]->rcv_nxt;\n"
	"	tcps_swnd = __tcpsk[S] == 0 ? 0 : __tcpsk[S]->snd_wnd;\n"
	"	tcps_rwnd = __tcpsk[S] == 0 ? 0 : __tcpsk[S]->rcv_wnd;\n"
	"	tcps_cwnd = __tcpsk[S] == 0 ? 0 : __tcpsk[S]->snd_cwnd;\n"
	"	tcps_cwnd_ssthresh = __tcpsk[S] == 0 ? 0 : __tcpsk[S]->snd_ssthresh;\n"
	"	tcps_mss = __tcpsk[S] == 0 ? 0 : __tcpsk[S]->mss_cache;\n"
	"	tcps_rtt = __tcpsk[S] == 0 ? 0 : (__tcpsk[S]->srtt_us >> 3) / 1000;\n"
	"	tcps_rtt_sd = __tcpsk[S] == 0 ? 0 : (__tcpsk[S]->mdev_us >> 2) / 1000;\n"
	"};\n"
	"translator udpinfo_t < struct udphdr *U > {\n"
	"	udp_sport = ntohs(U->source);\n"
	"	udp_dport = ntohs(U->dest);\n"
	"	udp_length = ntohs(U->len);\n"
	"	udp_checksum = ntohs(U->check);\n"
	"	udp_hdr = U;\n"
	"};\n"
	"translator udpsinfo_t < struct sk_buff *S > {\n"
	"	udps_addr = S->sk != 0 && S->sk->sk_protocol == IPPROTO_UDP ?\n"
	"	    (uintptr_t)S->sk : 0;\n"
	"	udps_lport = __lport[S];\n"
	"	udps_rport = __rport[S];\n"
	"	udps_laddr = __laddr[S];\n"
	"	udps_raddr = __raddr[S];\n"
	"};\n"
	"inline pktinfo_t *__pktinfo[struct sk_buff *S] = xlate <pktinfo_t *> (S);\n"
	"inline csinfo_t *__csinfo[struct sk_buff *S] = xlate <csinfo_t *> (S->sk);\n"
	"inline ipinfo_t *__ipinfo[struct sk_buff *S] = xlate <ipinfo_t *> (S);\n"
	"inline ifinfo_t *__ifinfo[struct sk_buff *S] = xlate <ifinfo_t *> (S->dev);\n"
	"inline ipv4info_t *__ipv4info[struct sk_buff *S] = xlate <ipv4info_t *> (\n"
	"    __ipv[__iph[S]] == 4 ? __ip4[S] : (struct iphdr *)0);\n"
	"inline ipv6info_t *__ipv6info[struct sk_buff *S] = xlate <ipv6info_t *> (\n"
	"    __ipv[__iph[S]] == 6 ? __ip6[S] : (struct ipv6hdr *)0);\n"
	"inline tcpsinfo_t *__tcpsinfo[struct sk_buff *S] = xlate <tcpsinfo_t *> (S);\n"
	"inline tcpinfo_t *__tcpinfo[struct sk_buff *S] =\n"
	"    xlate <tcpinfo_t *> ((struct tcphdr *)__l4h[S]);\n"
	"inline udpsinfo_t *__udpsinfo[struct sk_buff *S] = xlate <udpsinfo_t *> (S);\n"
	"inline udpinfo_t *__udpinfo[struct sk_buff *S] =\n"
	"    xlate <udpinfo_t *> ((struct udphdr *)__l4h[S]);\n"
	"inline int __sk_v6[struct sock *K] = K->__sk_common.skc_family == AF_INET6;\n"
	"inline string __sk_laddr[struct sock *K] = __sk_v6[K] ?\n"
	"    inet_ntoa6(&K->__sk_common.skc_v6_rcv_saddr) :\n"
	"    inet_ntoa((ipaddr_t *)&K->__sk_common.skc_rcv_saddr);\n"
	"inline string __sk_raddr[struct sock *K] = __sk_v6[K] ?\n"
	"    inet_ntoa6(&K->__sk_common.skc_v6_daddr) :\n"
	"    inet_ntoa((ipaddr_t *)&K->__sk_common.skc_daddr);\n"
	"inline uint16_t __sk_rport[struct sock *K] = ntohs(K->__sk_common.skc_dport);\n"
	/* the local port: skc_num, which closing a socket that did not bind
	 * its port (SYN-SENT -> CLOSED, connect-refused) has zeroed by the
	 * time the state changes; inet_sport keeps it */
	"inline uint16_t __sk_lport[struct sock *K] = K->__sk_common.skc_num != 0 ?\n"
	"    K->__sk_common.skc_num : ntohs(((struct inet_sock *)K)->inet_sport);\n"
	"translator ipinfo_t < struct sock *K > {\n"
	"	ip_ver = __sk_v6[K] ? 6 : 4;\n"
	"	ip_plength = 0;\n"
	"	ip_saddr = __net_inbound ? __sk_raddr[K] : __sk_laddr[K];\n"
	"	ip_daddr = __net_inbound ? __sk_laddr[K] : __sk_raddr[K];\n"
	"};\n"
	"translator tcpinfo_t < struct sock *K > {\n"
	"	tcp_sport = __net_inbound ? __sk_rport[K] : __sk_lport[K];\n"
	"	tcp_dport = __net_inbound ? __sk_lport[K] : __sk_rport[K];\n"
	"	tcp_hdr = 0;\n"
	"};\n"
	"translator tcpsinfo_t < struct sock *K > {\n"
	"	tcps_addr = (uintptr_t)K;\n"
	"	tcps_local = __sk_laddr[K] == __sk_raddr[K];\n"
	"	tcps_lport = __sk_lport[K];\n"
	"	tcps_rport = __sk_rport[K];\n"
	"	tcps_laddr = __sk_laddr[K];\n"
	"	tcps_raddr = __sk_raddr[K];\n"
	"	tcps_state = arg2;\n"
	"	tcps_suna = ((struct tcp_sock *)K)->snd_una;\n"
	"	tcps_snxt = ((struct tcp_sock *)K)->snd_nxt;\n"
	"	tcps_rnxt = ((struct tcp_sock *)K)->rcv_nxt;\n"
	"	tcps_swnd = ((struct tcp_sock *)K)->snd_wnd;\n"
	"	tcps_rwnd = ((struct tcp_sock *)K)->rcv_wnd;\n"
	"	tcps_cwnd = ((struct tcp_sock *)K)->snd_cwnd;\n"
	"	tcps_cwnd_ssthresh = ((struct tcp_sock *)K)->snd_ssthresh;\n"
	"	tcps_mss = ((struct tcp_sock *)K)->mss_cache;\n"
	"	tcps_rtt = (((struct tcp_sock *)K)->srtt_us >> 3) / 1000;\n"
	"	tcps_rtt_sd = (((struct tcp_sock *)K)->mdev_us >> 2) / 1000;\n"
	"};\n"
	"translator tcplsinfo_t < int S > {\n"
	"	tcps_state = S;\n"
	"};\n"
	"inline pktinfo_t *__sk_pktinfo[struct sock *K] =\n"
	"    xlate <pktinfo_t *> ((struct sk_buff *)0);\n"
	"inline csinfo_t *__sk_csinfo[struct sock *K] = xlate <csinfo_t *> (K);\n"
	"inline ipinfo_t *__sk_ipinfo[struct sock *K] = xlate <ipinfo_t *> (K);\n"
	"inline tcpsinfo_t *__sk_tcpsinfo[struct sock *K] = xlate <tcpsinfo_t *> (K);\n"
	"inline tcpinfo_t *__sk_tcpinfo[struct sock *K] = xlate <tcpinfo_t *> (K);\n"
	"inline tcplsinfo_t *__tcplsinfo[int S] = xlate <tcplsinfo_t *> (S);\n"
	/*
	 * tcp:::accept-refused (derived.c): the RST answering a SYN that no
	 * socket takes, described from that SYN, whose headers the stack has
	 * set: the RST's source is the SYN's destination, and it acknowledges
	 * the SYN's sequence number (tcp_v4_send_reset's reply to a segment
	 * without ACK: seq 0, ACK|RST).  The RST is not built yet (pkt_addr
	 * 0), nor has it a connection (tcps_addr 0, state CLOSED).
	 */
	"struct __tcp_rst { int __syn; };\n"
	"inline struct sk_buff *__rst_syn[struct __tcp_rst *R] = (struct sk_buff *)R;\n"
	"inline uint8_t *__rst_iph[struct __tcp_rst *R] =\n"
	"    (uint8_t *)__rst_syn[R]->head + __rst_syn[R]->network_header;\n"
	"inline uint8_t *__rst_th[struct __tcp_rst *R] =\n"
	"    (uint8_t *)__rst_syn[R]->head + __rst_syn[R]->transport_header;\n"
	"inline uint16_t __rst_lport[struct __tcp_rst *R] =\n"
	"    ntohs(*(uint16_t *)(__rst_th[R] + 2));\n"
	"inline uint16_t __rst_rport[struct __tcp_rst *R] =\n"
	"    ntohs(*(uint16_t *)__rst_th[R]);\n"
	"inline string __rst_laddr[struct __tcp_rst *R] = __ipv[__rst_iph[R]] == 4 ?\n"
	"    inet_ntoa((ipaddr_t *)&((struct iphdr *)__rst_iph[R])->daddr) :\n"
	"    inet_ntoa6(&((struct ipv6hdr *)__rst_iph[R])->daddr);\n"
	"inline string __rst_raddr[struct __tcp_rst *R] = __ipv[__rst_iph[R]] == 4 ?\n"
	"    inet_ntoa((ipaddr_t *)&((struct iphdr *)__rst_iph[R])->saddr) :\n"
	"    inet_ntoa6(&((struct ipv6hdr *)__rst_iph[R])->saddr);\n"
	"translator ipinfo_t < struct __tcp_rst *R > {\n"
	"	ip_ver = __ipv[__rst_iph[R]];\n"
	"	ip_plength = 20;\n"
	"	ip_saddr = __rst_laddr[R];\n"
	"	ip_daddr = __rst_raddr[R];\n"
	"};\n"
	"translator tcpsinfo_t < struct __tcp_rst *R > {\n"
	"	tcps_addr = 0;\n"
	"	tcps_local = (__rst_syn[R]->dev->flags & 8) != 0;\n"
	"	tcps_lport = __rst_lport[R];\n"
	"	tcps_rport = __rst_rport[R];\n"
	"	tcps_laddr = __rst_laddr[R];\n"
	"	tcps_raddr = __rst_raddr[R];\n"
	"	tcps_state = TCP_STATE_CLOSED;\n"
	"	tcps_suna = 0;\n"
	"	tcps_snxt = 0;\n"
	"	tcps_rnxt = 0;\n"
	"	tcps_swnd = 0;\n"
	"	tcps_rwnd = 0;\n"
	"	tcps_cwnd = 0;\n"
	"	tcps_cwnd_ssthresh = 0;\n"
	"	tcps_mss = 0;\n"
	"	tcps_rtt = 0;\n"
	"	tcps_rtt_sd = 0;\n"
	"};\n"
	"translator tcpinfo_t < struct __tcp_rst *R > {\n"
	"	tcp_sport = __rst_lport[R];\n"
	"	tcp_dport = __rst_rport[R];\n"
	"	tcp_seq = 0;\n"
	"	tcp_ack = ntohl(*(uint32_t *)(__rst_th[R] + 4)) + 1;\n"
	"	tcp_offset = 20;\n"
	"	tcp_flags = TH_RST | TH_ACK;\n"
	"	tcp_window = 0;\n"
	"	tcp_checksum = 0;\n"
	"	tcp_urgent = 0;\n"
	"	tcp_hdr = (struct tcphdr *)0;\n"
	"};\n"
	/* lockstat (lockstat.c): a wait's state, kept per thread and lock
	 * at contention_begin, read at contention_end; the LCB_F_* flags of
	 * include/trace/events/lock.h */
	"inline int LCB_F_SPIN = 0x1;\n"
	"inline int LCB_F_READ = 0x2;\n"
	"inline int LCB_F_WRITE = 0x4;\n"
	"inline int LCB_F_RT = 0x8;\n"
	"inline int LCB_F_PERCPU = 0x10;\n"
	"inline int LCB_F_MUTEX = 0x20;\n"
	/* lockstat's rw-acquire and rw-release say which kind of hold as
	 * illumos' krw_t */
	"inline int RW_WRITER = 0;\n"
	"inline int RW_READER = 1;\n"
	"inline void *__ls_lock = (void *)arg0;\n"
	"inline uint64_t __ls_spin_ns = (__ls_tb[tid, arg0] ? __ls_tb[tid, arg0]\n"
	"    : timestamp) - __ls_t0[tid, arg0];\n"
	"inline uint64_t __ls_block_ns = timestamp - __ls_tb[tid, arg0];\n"
	"inline int __ls_writer = (__ls_fl[tid, arg0] & LCB_F_WRITE) != 0;\n"
	"inline int __ls_adaptive = (__ls_fl[tid, arg0] & (LCB_F_MUTEX | LCB_F_RT)) != 0;\n"
	"inline int __ls_rw = !__ls_adaptive &&\n"
	"    (__ls_fl[tid, arg0] & (LCB_F_READ | LCB_F_WRITE)) != 0;\n"
	"inline int __ls_spun = (__ls_fl[tid, arg0] & 0x200) != 0;\n"
	"inline int __ls_is_adaptive_spin = __ls_adaptive && __ls_spun;\n"
	"inline int __ls_is_adaptive_block = __ls_adaptive && __ls_tb[tid, arg0];\n"
	"inline int __ls_is_rw_spin = __ls_rw && __ls_spun;\n"
	"inline int __ls_is_rw_block = __ls_rw && __ls_tb[tid, arg0];\n"
	"inline int __ls_is_spin_spin = __ls_spun && !__ls_adaptive && !__ls_rw;\n"
	/* plockstat (plockstat.c): the lock call under way, kept per thread
	 * at its entry; at the futex system call, is it a wait (FUTEX_WAIT,
	 * LOCK_PI, WAIT_BITSET, LOCK_PI2) on the lock's words (a mutex's
	 * __lock; an rwlock's __readers to __writers_futex); at the return,
	 * arg1 is its result.  glibc's pthread_mutex_t: __count at 4, __kind
	 * at 16, PTHREAD_MUTEX_RECURSIVE_NP is kind 1 of mask 3. */
	"inline int __pls_waits = self->__pls_lk && ((arg1 & 0x7f) == 0 ||\n"
	"    (arg1 & 0x7f) == 6 || (arg1 & 0x7f) == 9 || (arg1 & 0x7f) == 13) &&\n"
	"    (self->__pls_rw ? arg0 >= self->__pls_lk && arg0 < self->__pls_lk + 16\n"
	"    : arg0 == self->__pls_lk);\n"
	"inline int __pls_is_mutex_block = __pls_waits && !self->__pls_rw &&\n"
	"    !self->__pls_nblk;\n"
	"inline int __pls_is_rw_block = __pls_waits && self->__pls_rw &&\n"
	"    !self->__pls_nblk;\n"
	"inline int __pls_is_acquire = self->__pls_lk && (int)arg1 == 0;\n"
	"inline int __pls_is_blocked = self->__pls_lk && self->__pls_nblk;\n"
	"inline int __pls_is_error = self->__pls_lk && (int)arg1 != 0;\n"
	"inline int __pls_is_try_error = __pls_is_error && (int)arg1 != EBUSY;\n"
	"inline int __pls_is_release = self->__pls_ulk && (int)arg1 == 0;\n"
	"inline int __pls_is_unlock_error = self->__pls_ulk && (int)arg1 != 0;\n"
	"inline void *__pls_lock = (void *)self->__pls_lk;\n"
	"inline void *__pls_ulock = (void *)self->__pls_ulk;\n"
	"inline int __pls_recursive =\n"
	"    (*(int *)copyin(self->__pls_lk + 16, 4) & 3) == 1 &&\n"
	"    *(unsigned int *)copyin(self->__pls_lk + 4, 4) > 1;\n"
	"inline int __pls_urecursive =\n"
	"    (*(int *)copyin(self->__pls_ulk + 16, 4) & 3) == 1 &&\n"
	"    *(unsigned int *)copyin(self->__pls_ulk + 4, 4) > 0;\n"
	"inline int __pls_nblocks = self->__pls_nblk;\n"
	"inline int __pls_acquired = (int)arg1 == 0;\n"
	"inline int __pls_errno = (int)arg1;\n"
	"inline int __pls_writer = self->__pls_wr;\n"
	"inline int __pls_uwriter = self->__pls_uwr;\n";

/*
 * The D library's named integers (DTrace's errno.d, signal.d, regs.d,
 * procfs.d and its fault codes), as DTrace defines them for Linux on
 * x86-64.  The errno and signal values are the C library's own macros,
 * so they are this machine's, not copies; the register indices are
 * struct pt_regs' slots (uregs[] reads slot i), which is Solaris' regs
 * order for 0-20; the process states are procfs' pr_state values.
 * Kept as a table rather than D inlines: a program pays nothing to
 * parse two hundred inlines it never names.
 */
#define K(name) { #name, name, 4 }

static const struct dlib_const dlib_consts[] = {
	K(EPERM), K(ENOENT), K(ESRCH), K(EINTR),
	K(EIO), K(ENXIO), K(E2BIG), K(ENOEXEC),
	K(EBADF), K(ECHILD), K(EAGAIN), K(ENOMEM),
	K(EACCES), K(EFAULT), K(ENOTBLK), K(EBUSY),
	K(EEXIST), K(EXDEV), K(ENODEV), K(ENOTDIR),
	K(EISDIR), K(EINVAL), K(ENFILE), K(EMFILE),
	K(ENOTTY), K(ETXTBSY), K(EFBIG), K(ENOSPC),
	K(ESPIPE), K(EROFS), K(EMLINK), K(EPIPE),
	K(EDOM), K(ERANGE), K(EDEADLK),
	K(ENAMETOOLONG), K(ENOLCK), K(ENOSYS),
	K(ENOTEMPTY), K(ELOOP), K(EWOULDBLOCK),
	K(ENOMSG), K(EIDRM), K(ECHRNG), K(EL2NSYNC),
	K(EL3HLT), K(EL3RST), K(ELNRNG), K(EUNATCH),
	K(ENOCSI), K(EL2HLT), K(EBADE), K(EBADR),
	K(EXFULL), K(ENOANO), K(EBADRQC), K(EBADSLT),
	K(EDEADLOCK), K(EBFONT), K(ENOSTR),
	K(ENODATA), K(ETIME), K(ENOSR), K(ENONET),
	K(ENOPKG), K(EREMOTE), K(ENOLINK), K(EADV),
	K(ESRMNT), K(ECOMM), K(EPROTO), K(EMULTIHOP),
	K(EDOTDOT), K(EBADMSG), K(EOVERFLOW),
	K(ENOTUNIQ), K(EBADFD), K(EREMCHG),
	K(ELIBACC), K(ELIBBAD), K(ELIBSCN),
	K(ELIBMAX), K(ELIBEXEC), K(EILSEQ),
	K(ERESTART), K(ESTRPIPE), K(EUSERS),
	K(ENOTSOCK), K(EDESTADDRREQ), K(EMSGSIZE),
	K(EPROTOTYPE), K(ENOPROTOOPT), K(EPROTONOSUPPORT),
	K(ESOCKTNOSUPPORT), K(EOPNOTSUPP), K(EPFNOSUPPORT),
	K(EAFNOSUPPORT), K(EADDRINUSE), K(EADDRNOTAVAIL),
	K(ENETDOWN), K(ENETUNREACH), K(ENETRESET),
	K(ECONNABORTED), K(ECONNRESET), K(ENOBUFS),
	K(EISCONN), K(ENOTCONN), K(ESHUTDOWN),
	K(ETOOMANYREFS), K(ETIMEDOUT), K(ECONNREFUSED),
	K(EHOSTDOWN), K(EHOSTUNREACH), K(EALREADY),
	K(EINPROGRESS), K(ESTALE), K(EUCLEAN),
	K(ENOTNAM), K(ENAVAIL), K(EISNAM),
	K(EREMOTEIO), K(EDQUOT), K(ENOMEDIUM),
	K(EMEDIUMTYPE), K(ECANCELED), K(ENOKEY),
	K(EKEYEXPIRED), K(EKEYREVOKED), K(EKEYREJECTED),
	K(EOWNERDEAD), K(ENOTRECOVERABLE), K(ERFKILL),
	K(EHWPOISON), K(ENOTSUP),
	K(SIGHUP), K(SIGINT), K(SIGQUIT), K(SIGILL),
	K(SIGTRAP), K(SIGABRT), K(SIGIOT), K(SIGBUS),
	K(SIGFPE), K(SIGKILL), K(SIGUSR1), K(SIGSEGV),
	K(SIGUSR2), K(SIGPIPE), K(SIGALRM),
	K(SIGTERM), K(SIGSTKFLT), K(SIGCHLD),
	K(SIGCLD), K(SIGCONT), K(SIGSTOP), K(SIGTSTP),
	K(SIGTTIN), K(SIGTTOU), K(SIGURG), K(SIGXCPU),
	K(SIGXFSZ), K(SIGVTALRM), K(SIGPROF),
	K(SIGWINCH), K(SIGIO), K(SIGPOLL), K(SIGPWR),
	K(SIGSYS),
	/* faults, as the ERROR probe's arg4 reports them (spec/spec.h) */
	{ "DTRACEFLT_UNKNOWN", 0, 4 },
	{ "DTRACEFLT_BADADDR", FLT_BADADDR, 4 },
	{ "DTRACEFLT_BADALIGN", FLT_BADALIGN, 4 },
	{ "DTRACEFLT_ILLOP", FLT_ILLOP, 4 },
	{ "DTRACEFLT_DIVZERO", FLT_DIVZERO, 4 },
	{ "DTRACEFLT_NOSCRATCH", FLT_NOSCRATCH, 4 },
	{ "DTRACEFLT_KPRIV", FLT_KPRIV, 4 },
	{ "DTRACEFLT_UPRIV", FLT_UPRIV, 4 },
	{ "DTRACEFLT_TUPOFLOW", FLT_TUPOFLOW, 4 },
	{ "DTRACEFLT_BADSTACK", FLT_BADSTACK, 4 },
	{ "DTRACEFLT_BADSIZE", FLT_BADSIZE, 4 },
	{ "DTRACEFLT_BADINDEX", FLT_BADINDEX, 4 },
	{ "DTRACEFLT_LIBRARY", 1000, 4 },
	/* uregs[] indices: 0-20 struct pt_regs, 21-25 task->thread */
	{ "R_R15", 0, 4 }, { "R_R14", 1, 4 }, { "R_R13", 2, 4 },
	{ "R_R12", 3, 4 }, { "R_RBP", 4, 4 }, { "R_RBX", 5, 4 },
	{ "R_R11", 6, 4 }, { "R_R10", 7, 4 }, { "R_R9", 8, 4 },
	{ "R_R8", 9, 4 }, { "R_RAX", 10, 4 }, { "R_RCX", 11, 4 },
	{ "R_RDX", 12, 4 }, { "R_RSI", 13, 4 }, { "R_RDI", 14, 4 },
	{ "R_ERR", 15, 4 }, { "R_RIP", 16, 4 }, { "R_CS", 17, 4 },
	{ "R_RFL", 18, 4 }, { "R_RSP", 19, 4 }, { "R_SS", 20, 4 },
	{ "R_DS", 21, 4 }, { "R_ES", 22, 4 }, { "R_FS", 23, 4 },
	{ "R_GS", 24, 4 }, { "R_TRAPNO", 25, 4 },
	{ "R_EAX", 10, 4 }, { "R_EBX", 5, 4 }, { "R_ECX", 11, 4 },
	{ "R_EDX", 12, 4 }, { "R_ESI", 13, 4 }, { "R_EDI", 14, 4 },
	{ "R_EBP", 4, 4 }, { "R_EIP", 16, 4 }, { "R_EFL", 18, 4 },
	{ "R_ESP", 19, 4 }, { "R_PC", 16, 4 }, { "R_FP", 4, 4 },
	{ "R_SP", 19, 4 }, { "R_PS", 18, 4 }, { "R_R0", 10, 4 },
	{ "R_R1", 5, 4 },
	/* pr_state (lwpsinfo_t) and pr_dmodel (psinfo_t); char, as in procfs.d */
	{ "SSLEEP", 1, 1 }, { "SRUN", 2, 1 }, { "SZOMB", 3, 1 },
	{ "SSTOP", 4, 1 }, { "SIDL", 5, 1 }, { "SONPROC", 6, 1 },
	{ "SWAIT", 7, 1 },
	{ "PR_MODEL_ILP32", 1, 1 }, { "PR_MODEL_LP64", 2, 1 },
	/* pr_flag (procfs.d, as Solaris' sys/procfs.h numbers them) */
	{ "PR_STOPPED", 0x00000001, 4 }, { "PR_ISTOP", 0x00000002, 4 },
	{ "PR_DSTOP", 0x00000004, 4 }, { "PR_STEP", 0x00000008, 4 },
	{ "PR_ASLEEP", 0x00000010, 4 }, { "PR_PCINVAL", 0x00000020, 4 },
	{ "PR_ASLWP", 0x00000040, 4 }, { "PR_AGENT", 0x00000080, 4 },
	{ "PR_DETACH", 0x00000100, 4 }, { "PR_DAEMON", 0x00000200, 4 },
	{ "PR_IDLE", 0x00000400, 4 }, { "PR_ISSYS", 0x00001000, 4 },
	{ "PR_VFORKP", 0x00002000, 4 }, { "PR_ORPHAN", 0x00004000, 4 },
	{ "PR_NOSIGCHLD", 0x00008000, 4 }, { "PR_WAITPID", 0x00010000, 4 },
	{ "PR_FORK", 0x00100000, 4 }, { "PR_RLC", 0x00200000, 4 },
	{ "PR_KLC", 0x00400000, 4 }, { "PR_ASYNC", 0x00800000, 4 },
	{ "PR_MSACCT", 0x01000000, 4 }, { "PR_BPTADJ", 0x02000000, 4 },
	{ "PR_PTRACE", 0x04000000, 4 }, { "PR_MSFORK", 0x08000000, 4 },
	/* pr_stype, the synchronization object slept on (sched.d); Linux
	 * does not say, so pr_stype is SOBJ_NONE */
	{ "SOBJ_NONE", 0, 4 }, { "SOBJ_MUTEX", 1, 4 }, { "SOBJ_RWLOCK", 2, 4 },
	{ "SOBJ_CV", 3, 4 }, { "SOBJ_SEMA", 4, 4 }, { "SOBJ_USER", 5, 4 },
	{ "SOBJ_USER_PI", 6, 4 }, { "SOBJ_SHUTTLE", 7, 4 },
	/* net.d: which way a packet probe's packet goes */
	{ "NET_PROBE_OUTBOUND", 0, 4 }, { "NET_PROBE_INBOUND", 1, 4 },
	/* proc:::exit's args[0] (siginfo's si_code for SIGCHLD) */
	K(CLD_EXITED), K(CLD_KILLED), K(CLD_DUMPED), K(CLD_TRAPPED),
	K(CLD_STOPPED), K(CLD_CONTINUED),
	/* IP protocols (ip.d) */
	K(IPPROTO_IP), K(IPPROTO_ICMP), K(IPPROTO_IGMP), K(IPPROTO_IPIP),
	K(IPPROTO_TCP), K(IPPROTO_EGP), K(IPPROTO_PUP), K(IPPROTO_UDP),
	K(IPPROTO_IDP), K(IPPROTO_TP), K(IPPROTO_DCCP), K(IPPROTO_IPV6),
	K(IPPROTO_RSVP), K(IPPROTO_GRE), K(IPPROTO_ESP), K(IPPROTO_AH),
	K(IPPROTO_MTP), K(IPPROTO_BEETPH), K(IPPROTO_ENCAP), K(IPPROTO_PIM),
	K(IPPROTO_COMP), K(IPPROTO_SCTP), K(IPPROTO_UDPLITE), K(IPPROTO_RAW),
	K(IPPROTO_HOPOPTS), K(IPPROTO_ROUTING), K(IPPROTO_FRAGMENT),
	K(IPPROTO_ICMPV6), K(IPPROTO_NONE), K(IPPROTO_DSTOPTS), K(IPPROTO_MH),
	{ NULL, 0, 0 }
};

const struct dlib_const *dlib_const_find(const char *name)
{
	for (const struct dlib_const *c = dlib_consts; c->name; c++)
		if (strcmp(c->name, name) == 0)
			return c;
	return NULL;
}
