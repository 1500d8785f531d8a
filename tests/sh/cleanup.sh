# Nothing stays attached: after exit(), SIGINT, SIGTERM and SIGKILL the
# kernel holds no dscope program, and END runs on the signals it can catch.
. tests/sh/lib.sh
command -v bpftool >/dev/null || { echo "bpftool not installed"; exit 77; }
no_progs_left || { echo "another dscope is running"; exit 77; }

$D -q -n 'syscall:::entry { @[execname] = count(); } tick-100ms { exit(0); }' >/dev/null || fail "exit() run failed"
no_progs_left || fail "programs left after exit()"

for sig in INT TERM; do
	out=$(mktemp)
	$D -q -n 'syscall:::entry { @n = count(); } END { printf("END ran\n"); }' >"$out" 2>&1 &
	pid=$!
	wait_loaded $pid || fail "$sig: never attached"
	kill -$sig $pid; wait $pid; rc=$?
	[ $rc = 0 ] || fail "$sig: exit status $rc"
	grep -q "END ran" "$out" || fail "$sig: END did not run"
	no_progs_left || fail "$sig: programs left"
	rm -f "$out"
done

$D -q -n 'syscall:::entry { @n = count(); }' >/dev/null 2>&1 &
pid=$!
wait_loaded $pid
kill -KILL $pid; wait $pid 2>/dev/null
no_progs_left || fail "KILL: programs left"
exit 0
