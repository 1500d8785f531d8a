# usdt is-enabled probes leave nothing behind: while dscope traces
# usdtprog:::gated in a running process (-p) the probe's semaphore is
# raised and the is-enabled branch taken; once dscope has exited the
# kernel has lowered the semaphore again (it does so when the link's fd
# closes), so the branch is no longer taken: its count stops growing.
# The same after kill -9 of a dscope still tracing.
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

$D -q -p $pid -n 'usdtprog$target:::gated { @ = count(); }' >/dev/null 2>&1 &
dpid=$!
taken=$(echo "$first" | cut -d' ' -f2) n=4 attached=
for i in $(seq 100); do	# attached once the branch is taken again
	kill -USR1 $pid
	l=$(line $n) || fail "no report from usdtprog"
	set -- $l
	n=$((n + 1))
	[ "$2" -gt "$taken" ] && { attached=1; break; }
	sleep 0.1
done
[ -n "$attached" ] || fail "the branch was never taken under a second dscope"
kill -9 $dpid
wait $dpid 2>/dev/null
# the kernel frees the links of a killed process promptly, not
# synchronously with its death: up to 10 s for the semaphore to drop
for i in $(seq 100); do
	kill -USR1 $pid
	l=$(line $n) || fail "no report from usdtprog"
	set -- $l
	n=$((n + 1))
	[ "$4" = 0 ] && exit 0
	sleep 0.1
done
fail "semaphore still raised 10 s after kill -9 of dscope: $l"
