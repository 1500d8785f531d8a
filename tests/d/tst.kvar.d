/*
 * Kernel variables by backquote: scalars, an address, struct members, a
 * pointer followed, an array element, a module-scoped name.  Only what
 * every kernel agrees on is printed; tests/sh/kvar-values.sh compares the
 * machine-dependent values with what /proc and /sys say.
 * @@needs: grep -q " D jiffies$" /proc/kallsyms || { echo "this kernel's /proc/kallsyms lists no data symbols (CONFIG_KALLSYMS_ALL off)" >&2; false; }
 * @@args: -q
 */
BEGIN
{
	printf("init_task: %s pid %d mm %p\n", `init_task.comm, `init_task.pid,
	    `init_task.mm);
	printf("list: %s\n", `init_task.tasks.next->prev == &`init_task.tasks ?
	    "ok" : "wrong");
	printf("sysname: %s\n", `init_uts_ns.name.sysname);
	printf("pid ns level: %d\n", vmlinux`init_pid_ns.level);
	printf("cpu 0 online: %d\n", `__cpu_online_mask.bits[0] & 1);
	printf("cpus: %s\n", `nr_cpu_ids > 0 ? "some" : "none");
	printf("jiffies alias jiffies_64: %d\n", &`jiffies == &`jiffies_64);
	printf("sizeof: %d %d\n", sizeof(`nr_cpu_ids), sizeof(`jiffies));
	exit(0);
}
