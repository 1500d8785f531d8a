# The overhead budget (rt/budget.h).  A probe storm: pid$target:::entry
# over tinycalls, whose threads call two tiny functions in a tight loop
# until killed, so that nearly all of the process's time is its probes'.
# Under the default budget dscope stops by itself: exit status 1, the
# aggregation gathered so far printed (both functions counted), one
# sentence naming what the probes took, the budget (50%) and the busiest
# probes, no END, and every BPF program and link it held (their ids, read
# from /proc/PID/fdinfo while it ran) gone from the kernel.  The same
# storm of known length with -x budget=off runs to its end and counts
# every call exactly; -w alone turns the default off too, as DTrace's
# deadman spares destructive consumers.  Nothing here is timed: the
# storm runs until the budget stops it, within the test's own bound.
#
# In an emulated guest (DSCOPE_TEST_VM) the storm runs under a budget of
# 25%, not the default: there a firing costs tinycalls 9.4 us of its
# time, of which the budget charges its program's 1.2 us and a trap as
# dscope's calibration times it, 2.7-6.7 us (Debian 11's 5.10 under
# TCG, two threads), so the storm is measured at 42-95% of its process's
# time -- a sample under 50% is often, and in CI's guest, beside three
# others, the storm ran past the test's 360 s.  The budget errs as it is
# meant to, charging a firing less than it costs, never more; the
# default's 50% is what this test checks on every other machine.
. tests/sh/lib.sh
dir=$(mktemp -d)
trap 'kill $dpid 2>/dev/null; wait 2>/dev/null; rm -rf "$dir"' EXIT
# Where the kernel has no uprobe_multi (6.1), every function of the
# process is a uprobe perf event of its own, some 3900 of them attached
# and detached one at a time: minutes under a guest's emulation, for no
# firing the storm needs.  There the storm is the program's own functions.
mod=
$D -vV | grep -q '^  uprobe_multi  *yes' || mod=tinycalls
script="pid\$target:$mod::entry { @[probefunc] = count(); } END { printf(\"END ran\\n\"); }"

pct=50 opt=
[ -n "$DSCOPE_TEST_VM" ] && pct=25 opt="-x budget=25"
$D $opt -n "$script" -c "$B/targets/tinycalls 0 2" >"$dir/out" 2>"$dir/err" & dpid=$!
# its programs and links, once tinycalls runs (it runs once they are
# attached) -- if dscope still runs then: the budget, which watches from
# before the probes attach, may stop the storm before this loop sees it
# (in a guest it did), and nothing here may depend on who is first
child=
while kill -0 $dpid 2>/dev/null; do
	child=$(pgrep -P $dpid -x tinycalls) && break
	sleep 0.05
done
cat /proc/$dpid/fdinfo/* 2>/dev/null |
	sed -n 's/^\(prog\|link\)_id:[[:space:]]*\([0-9]*\)$/\1 \2/p' | sort -u >"$dir/ids"
wait $dpid; rc=$?
dpid=
[ $rc = 1 ] || fail "exit $rc under the budget of $pct%, want 1: $(grep -v 'left out' "$dir/err" | head -3)"
# the storm's process, as the sentence names it when it ended unseen
[ -n "$child" ] || child=$(sed -n "s/.* of process \([0-9]*\)'s CPU time.*/\1/p" "$dir/err")
[ -n "$child" ] || fail "no tinycalls seen or named: $(head -3 "$dir/err")"
said=$(grep 'processing aborted' "$dir/err")
[ "$(echo "$said" | grep -c .)" = 1 ] || fail "no one 'processing aborted' line: $(cat "$dir/err")"
echo "$said" | grep -Eq "^dscope: processing aborted: Abort due to probe overhead: the probes took [0-9]+\.[0-9]% of process $child's CPU time over [0-9.]+ s, over the budget of $pct\.0% \(option budget\); the busiest: pid$child:${mod:-\*}:\*:entry \([0-9]+ probes\) [0-9]+\.[0-9]%$" ||
	fail "not the sentence wanted: $said"
for f in tiny_add tiny_xor; do
	grep -Eq "^  $f +[1-9][0-9]*$" "$dir/out" || fail "$f not counted: $(tail -3 "$dir/out")"
done
! grep -q 'END ran' "$dir/out" || fail "END ran after the budget stopped the run"
left=$(objects_left "$dir/ids")
[ -z "$left" ] || fail "left in the kernel after dscope stopped: $left"
# and whatever it held unseen: a link left would keep its program, which
# dscope names
no_progs_left || fail "dscope's programs still loaded after it stopped: $(dscope_progs)"
kill -0 $child 2>/dev/null && fail "tinycalls still runs"

# off: the whole storm, every call counted, END run, exit 0
for how in "-x budget=off" "-w"; do
	$D -q $how -n "$script" -c "$B/targets/tinycalls 100000 2" >"$dir/out" 2>"$dir/err" ||
		fail "$how: exit $?: $(grep -v 'left out' "$dir/err" | head -3)"
	for f in tiny_add tiny_xor; do
		grep -Eq "^  $f +200000$" "$dir/out" || fail "$how: $f not 200000: $(grep tiny "$dir/out")"
	done
	grep -q 'END ran' "$dir/out" || fail "$how: END did not run"
	! grep -q 'processing aborted' "$dir/err" || fail "$how: stopped: $(grep aborted "$dir/err")"
done

# the option's values: a percentage up to 100, or off
for v in 101 -5 abc 5%%; do
	$D -x budget=$v -n 'BEGIN { exit(0); }' >/dev/null 2>"$dir/err" && fail "budget=$v taken"
	grep -q "failed to set -x budget: Invalid value for specified option" "$dir/err" ||
		fail "budget=$v: $(cat "$dir/err")"
done
for v in 0 2.5 25% off 100; do
	$D -q -x budget=$v -n 'BEGIN { exit(0); }' || fail "budget=$v refused"
done
echo "$said"
exit 0
