# An attach storm leaves the machine responsive: a 1 ms sleeper
# (targets/wakeup) pinned to one CPU measures how late the kernel wakes
# it -- idle, while dscope (pinned to the other) attaches fbt probes,
# while they trace, and while they are released -- and the worst of each
# phase is printed for the record.  Nothing here bounds a time (a shared,
# emulated machine gives no bound): the test checks that the run ends as
# asked (^C) or by the overhead budget (while attaching or after), in
# one sentence, and leaves no program behind.  The probes are a glob of
# some hundreds (tcp_*) where each is a kprobe of its own (~100 ms of the
# kernel's work apiece under emulation: an hour for Debian 12's 37,000),
# and of some thousands ([a-c]*) where kprobe_multi links take them in
# batches (rt/uprobe.c), unless FBT_STORM names another (fbt:::entry:
# bench/RESULTS.md).
. tests/sh/lib.sh
$D -vV 2>&1 | grep -q '^  kprobe  *yes' || { echo "no kprobes here"; exit 77; }
[ "$(nproc)" -ge 2 ] || { echo "one CPU: no other to watch from"; exit 77; }
no_progs_left || { echo "another dscope is running"; exit 77; }
glob=fbt::tcp_*:entry
$D -vV 2>&1 | grep -q '^  kprobe_multi  *yes' && glob='fbt::[a-c]*:entry'
glob=${FBT_STORM:-$glob}
n=$($D -l -n "$glob" | tail -n +2 | wc -l)
[ "$n" -gt 0 ] || fail "$glob lists no probe"

dir=$(mktemp -d)
trap 'kill $sleeper $dscope 2>/dev/null; rm -rf "$dir"' EXIT
taskset -c 1 "$B/targets/wakeup" >"$dir/lat" &
sleeper=$!
until grep -q ready "$dir/lat"; do sleep 0.1; done
phase() { kill -USR1 $sleeper; date +%s.%N >>"$dir/times"; }
sleep 2
phase	# idle

# The first tick prints when the consumer first reads, after every probe
# is attached (attach_all runs before the first poll).
taskset -c 0 $D -q -n "$glob { @ = count(); }
	tick-1s /!started/ { started = 1; printf(\"tracing\\n\"); }" \
	>"$dir/out" 2>"$dir/err" &
dscope=$!
until grep -q tracing "$dir/out" || ! kill -0 $dscope 2>/dev/null; do sleep 0.2; done
phase	# attach
kill -0 $dscope 2>/dev/null && sleep 5
phase	# run
kill -INT $dscope 2>/dev/null
wait $dscope
rc=$?
dscope=""
# released by dscope's detach child, one kprobe after another
for s in $(seq 9000); do [ "$(dscope_progs)" = 0 ] && break; sleep 0.1; done
left=$(dscope_progs)
phase	# detach
kill -TERM $sleeper
wait $sleeper
sleeper=""

case $rc in
0) ;;
1) grep -q "Abort due to probe overhead" "$dir/err" ||
	fail "exit 1: $(grep -v 'left out' "$dir/err" | head -3)" ;;
*) fail "exit $rc: $(head -3 "$dir/err")" ;;
esac
[ "$left" = 0 ] || fail "$left programs left loaded"
# stopped by the budget while attaching, it never traced: that is
# allowed, and the budget's sentence says how far the attach came
grep -q "tracing\|Abort due" "$dir/out" "$dir/err" ||
	fail "never traced: $(head -3 "$dir/err")"
if ! grep -q tracing "$dir/out" && grep -q "Abort due" "$dir/err"; then
	grep -Eq "\(option budget\), stopped after attaching [0-9]+ of [0-9]+ fbt probes" "$dir/err" ||
		fail "stopped while attaching: $(grep 'Abort due' "$dir/err")"
fi
worst=($(sed -n 's/^worst \([0-9-]*\) sleeps.*/\1/p' "$dir/lat"))
t=($(cat "$dir/times"))
secs() { echo "$1 $2" | awk '{ printf "%.1f", $2 - $1 }'; }
echo "$glob ($n probes, exit $rc$(grep -q 'Abort due' "$dir/err" && echo ', stopped by the budget')):" \
	"worst wake-up latency of a 1 ms sleeper on CPU 1 (us):" \
	"idle ${worst[0]}, attach ${worst[1]} ($(secs ${t[0]} ${t[1]}) s)," \
	"run ${worst[2]} ($(secs ${t[1]} ${t[2]}) s)," \
	"detach ${worst[3]} ($(secs ${t[2]} ${t[3]}) s)"
grep -h "left out\|Abort" "$dir/err" | head -2
exit 0
