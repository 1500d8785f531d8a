# Nothing stays attached: after exit(), SIGINT, SIGTERM and SIGKILL the
# kernel holds no dscope program, and END runs on the signals it can catch.
# A -c command that outlives the trace dies with it, as DTrace kills what
# it created (it ran on, unwatched).
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

# -c's command runs on past exit() and past SIGINT: both end it.  The
# command records its pid first, so the test can look for it after.
for how in exit INT; do
	pf=$(mktemp)
	# exit() once the command sleeps: it has written its pid by then
	script='syscall::clock_nanosleep:entry,syscall::nanosleep:entry /pid == $target/ { exit(0); }'
	[ $how = INT ] && script='syscall::getppid:entry { @n = count(); }'
	$D -q -n "$script" -c "sh -c 'echo \$\$ >$pf; exec sleep 1000'" >/dev/null 2>&1 &
	pid=$!
	for i in $(seq 600); do [ -s "$pf" ] && break; sleep 0.1; done
	cmd=$(cat "$pf")
	[ -n "$cmd" ] || fail "$how: the -c command never ran"
	[ $how = INT ] && kill -INT $pid
	wait $pid
	# gone, not a zombie of dscope's (it reaped it)
	! kill -0 "$cmd" 2>/dev/null || fail "$how: the -c command ($cmd) still runs"
	rm -f "$pf"
done

$D -q -n 'syscall:::entry { @n = count(); }' >/dev/null 2>&1 &
pid=$!
wait_loaded $pid
kill -KILL $pid; wait $pid 2>/dev/null
no_progs_left || fail "KILL: programs left"
exit 0
