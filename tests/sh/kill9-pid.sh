# kill -9 of dscope in the middle of a pid and syscall trace: the kernel
# drops every program and uprobe with dscope's fds, and the traced process
# keeps running, unharmed.
. tests/sh/lib.sh
command -v bpftool >/dev/null || { echo "bpftool not installed"; exit 77; }
no_progs_left || { echo "another dscope is running"; exit 77; }
"$B/targets/loop" 2000000000 & target=$!
$D -q -p $target -n 'pid$target::main:entry { @ = count(); } syscall::getppid:entry /pid == $target/ { @n = count(); }' \
	>/dev/null 2>&1 &
pid=$!
wait_loaded $pid || { kill $target; fail "never attached"; }
kill -KILL $pid; wait $pid 2>/dev/null
no_progs_left || { kill $target; fail "programs left after kill -9"; }
grep -q "$B/targets/loop" /sys/kernel/tracing/uprobe_events 2>/dev/null &&
	{ kill $target; fail "a uprobe was left in tracefs"; }
kill -0 $target || fail "the traced process died"
kill $target; wait $target 2>/dev/null
exit 0
