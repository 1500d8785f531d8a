/*
 * A kernel built without CONFIG_KALLSYMS_ALL lists no variables in
 * /proc/kallsyms: a backquoted name says so in one sentence.  A user
 * shown no addresses there (kptr_restrict: not root) is told that instead.
 * @@needs: { ! grep -q " D jiffies$" /proc/kallsyms || { echo "this kernel's /proc/kallsyms lists data symbols" >&2; false; }; } && { grep -qv '^0\{16\} ' /proc/kallsyms || { echo "/proc/kallsyms shows this user no addresses" >&2; false; }; }
 */
BEGIN
{
	trace(`nr_cpu_ids);
	exit(0);
}
