# Under load: both CPUs flood getppid() for 30 s while dscope traces every
# call with printf and an aggregation into 16 KiB buffers.  dscope must
# stay up and exit 0, report its drops per CPU, print only well-formed
# lines, and keep its memory flat (RSS at the end within 8 MiB of RSS
# after 5 s).  Nothing here depends on speed: a flood this size always
# overruns 16 KiB, and the checks are on content, not on counts.
. tests/sh/lib.sh
out=$(mktemp) err=$(mktemp)
$D -q -x bufsize=16k -n '
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
