# Under load: both CPUs flood getppid() for 30 s while dscope traces every
# call with printf and an aggregation into 16 KiB buffers.  dscope must
# stay up and exit 0, report its drops per CPU, print only well-formed
# lines, and keep its memory flat (RSS at the end within 8 MiB of RSS
# after 5 s).  Nothing here depends on speed: a flood this size always
# overruns 16 KiB, and the checks are on content, not on counts.
#
# Before that, records at full speed with the default buffers (4 MiB a
# CPU), each printing its number: every record the buffers can hold must
# print, once, and every other be counted as a drop.
#  - 200000 records (6.4 MB) from two runs of 100000 getppid() calls.
#    Between the runs the -c shell waits until all but 8192 of the first
#    run's lines (the 256 KiB a ring holds before it wakes the consumer)
#    are out, so no more than 108192 (3.5 MB) are ever unread and all
#    must print, with no drop reported.  switchrate is an hour: only the
#    wakeups read the rings here, and if the consumer were not woken the
#    wait would never end.
#  - 2000000 records (64 MB) in one run: what the consumer does not drain
#    in time is lost, but counted, so lines printed and drops reported add
#    up to N exactly.  In an emulated guest (DSCOPE_TEST_VM), 200000: the
#    rule is the same, and sorting 2 million lines there outlasts the
#    test's two minutes.
. tests/sh/lib.sh
out=$(mktemp) err=$(mktemp)
check_flood() {	# N: every number once, or a drop for it
	local n=$1 lines drops
	lines=$(grep -c . "$out")
	drops=$(reported_drops "$err")
	[ $((lines + drops)) = $n ] || fail "N=$n: $lines lines and $drops drops"
	# each CPU's records print in order, the CPUs' one after another
	grep . "$out" | sort -n | uniq | awk -v n=$n -v l=$lines '
		!/^[0-9]+$/ || $1 < 1 || $1 > n { exit 1 }
		END { exit NR != l }' || fail "N=$n: a line twice, or not a number in 1..$n"
	echo "$drops"
}
$D -q -x switchrate=1h \
	-n 'syscall::getppid:entry /ppid == $target && execname == "loop"/ { printf("%d\n", ++x); }' \
	-c "sh -c '$B/targets/loop 100000
		while [ \$(wc -l <$out) -lt 91808 ]; do sleep 0.1; done
		$B/targets/loop 100000'" >"$out" 2>"$err" || fail "exit $?: $(head -3 "$err")"
drops=$(check_flood 200000) || fail "$drops"
[ "$drops" = 0 ] || fail "N=200000: drops reported: $(head -3 "$err")"
big=2000000
[ -n "$DSCOPE_TEST_VM" ] && big=200000
$D -q -n 'syscall::getppid:entry /pid == $target/ { printf("%d\n", ++x); }' \
	-c "$B/targets/loop $big" >"$out" 2>"$err" || fail "exit $?: $(head -3 "$err")"
drops=$(check_flood $big) || fail "$drops"
# budget=off: the flood is the point here.  Its probes take some 40% of
# both CPUs, under the default overhead budget of 50% but not by a margin
# every machine keeps; tests/sh/budget.sh is the budget's test.
$D -q -x bufsize=16k -x budget=off -n '
	syscall::getppid:entry /execname == "loop"/ { printf("%d %s\n", pid, execname); @[execname] = count(); }
	tick-30s { exit(0); }' >"$out" 2>"$err" &
pid=$!
wait_loaded $pid
"$B/targets/loop" 2000000000 & l1=$!
"$B/targets/loop" 2000000000 & l2=$!
sleep 5
rss0=$(awk '/VmRSS/ { print $2 }' /proc/$pid/status)
sleep 20
rss1=$(awk '/VmRSS/ { print $2 }' /proc/$pid/status)
wait $pid; rc=$?
kill $l1 $l2 2>/dev/null; wait $l1 $l2 2>/dev/null
[ $rc = 0 ] || fail "exit $rc: $(head -5 "$err")"
grep -q "drops on CPU" "$err" || fail "no drops reported: $(head -5 "$err")"
bad=$(grep -v -E '^([0-9]+ loop|  loop +[0-9]+|)$' "$out" | head -3)
[ -z "$bad" ] || fail "malformed output: $bad"
[ $((rss1 - rss0)) -lt 8192 ] || fail "RSS grew from $rss0 kB to $rss1 kB"
rm -f "$out" "$err"
exit 0
