# Kernel variables read by backquote equal what the kernel says of them
# elsewhere: nr_cpu_ids is one past the last possible CPU, max_pfn the
# page after the last System RAM byte (/proc/iomem, x86), the release
# is uname -r, the command line /proc/cmdline, the online mask
# /sys/devices/system/cpu/online's first 64 CPUs, pid_max (6.1-6.13)
# /proc/sys/kernel/pid_max; jiffies advances by CONFIG_HZ (100 to 1000)
# a second.  A per-CPU symbol and one without type information fail
# with a sentence saying so.
. tests/sh/lib.sh
grep -q ' D jiffies$' /proc/kallsyms ||
	{ echo "this kernel's /proc/kallsyms lists no data symbols"; exit 77; }
out=$($D -q -n 'BEGIN { j = `jiffies;
	printf("%d %d %x\n", `nr_cpu_ids, `max_pfn, `__cpu_online_mask.bits[0]);
	printf("%s\n%s\n", `init_uts_ns.name.release,
	    stringof(`saved_command_line)); }
	tick-1s { printf("%d\n", `jiffies - j); exit(0); }') || fail "exit $?: $out"
set -- $(echo "$out" | sed -n 1p)
possible=$(sed 's/.*[-,]//' /sys/devices/system/cpu/possible)
[ "$1" = $((possible + 1)) ] || fail "nr_cpu_ids $1, possible CPUs 0-$possible"
ram_end=$(grep 'System RAM' /proc/iomem | tail -1 | sed 's/^ *[0-9a-f]*-\([0-9a-f]*\) .*/\1/')
[ "$2" = $(((0x$ram_end + 1) >> 12)) ] || fail "max_pfn $2, last RAM byte 0x$ram_end"
mask=0
for r in $(tr ',' ' ' < /sys/devices/system/cpu/online); do
	lo=${r%-*} hi=${r#*-}
	for ((c = lo; c <= hi && c < 64; c++)); do mask=$((mask | 1 << c)); done
done
[ "$3" = "$(printf %x $mask)" ] || fail "online mask $3, sysfs $(printf %x $mask)"
[ "$(echo "$out" | sed -n 2p)" = "$(uname -r)" ] || fail "release: $out"
[ "$(echo "$out" | sed -n 3p)" = "$(cat /proc/cmdline)" ] || fail "cmdline: $out"
hz=$(echo "$out" | sed -n 4p)
[ "$hz" -ge 90 ] && [ "$hz" -le 1100 ] || fail "jiffies a second: $hz"
if grep -q ' D pid_max$' /proc/kallsyms; then
	v=$($D -q -n 'BEGIN { trace(`pid_max); exit(0); }') || fail "pid_max"
	[ "$v" = "$(cat /proc/sys/kernel/pid_max)" ] || fail "pid_max $v"
fi
err=$($D -n 'BEGIN { trace(`runqueues); }' 2>&1) && fail "runqueues read"
echo "$err" | grep -q 'is a per-CPU variable' || fail "runqueues: $err"
err=$($D -n 'BEGIN { trace(`panic_timeout); }' 2>&1) && fail "panic_timeout read"
echo "$err" | grep -q 'no symbolic type information is available for vmlinux`panic_timeout' ||
	fail "panic_timeout: $err"
v=$($D -q -n 'extern int panic_timeout; BEGIN { trace(`panic_timeout); exit(0); }') ||
	fail "panic_timeout declared"
[ "$v" = "$(cat /proc/sys/kernel/panic)" ] || fail "panic_timeout $v"
exit 0
