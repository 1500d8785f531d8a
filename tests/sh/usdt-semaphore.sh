# usdt is-enabled probes leave nothing behind: while dscope traces
# usdtprog:::gated in a running process (-p) the probe's semaphore is
# raised and the is-enabled branch taken; once dscope has exited the
# kernel has lowered the semaphore again (it does so when the link's fd
# closes), so the branch is no longer taken: its count stops growing.
. tests/sh/lib.sh
out=$(mktemp)
$B/targets/usdtprog -1 >"$out" &
pid=$!
trap 'kill $pid 2>/dev/null; rm -f "$out"' EXIT
# the n-th line of the target's output, waiting up to 10 s for it
line() {
	for i in $(seq 100); do
		l=$(sed -n "$1p" "$out")
		[ -n "$l" ] && { echo "$l"; return 0; }
		sleep 0.1
	done
	return 1
}
line 1 >/dev/null || fail "usdtprog did not start"
d=$($D -q -p $pid -n 'usdtprog$target:::gated /++n == 50/ { exit(0); }' 2>&1)
rc=$?
[ $rc = 0 ] || fail "dscope exit $rc: $d"
kill -USR1 $pid
first=$(line 2) || fail "no report from usdtprog"
set -- $first
[ "$4" = 0 ] || fail "semaphore still raised after dscope exited: $first"
[ "$2" -ge 50 ] || fail "the is-enabled branch ran $2 times while traced, want >= 50"
sleep 0.2	# the target goes on looping; the branch must not be taken
kill -USR1 $pid
second=$(line 3) || fail "no second report from usdtprog"
[ "$second" = "$first" ] || fail "is-enabled count grew after the trace: $first, then $second"
exit 0
