# A recording cut short (dscope killed with SIGKILL mid-recording) is a
# trace up to the cut: the consumer writes whole packets, one write()
# each, so babeltrace2 reads every event that reached the disk, and a
# replay runs them and says the trace was cut short.
. tests/sh/lib.sh
need_babeltrace2
dir=$(mktemp -d)
trap 'kill -9 $pid $child 2>/dev/null; rm -rf "$dir"' EXIT
l=rc$$		# a name of its own: other tests may run loop meanwhile
cp "$B/targets/loop" "$dir/$l"
# -c runs the workload once the probes are attached; its sleep keeps
# the recorder going until it is killed
$D -q -x record="$dir/t" -x switchrate=10ms \
	-n "syscall::getppid:entry /execname == \"$l\"/ {}" \
	-c "sh -c '$dir/$l 300; exec sleep 600'" 2>"$dir/err" &
pid=$!
# the 300 firings written out: the recorder is still running
while [ "$(babeltrace2 "$dir/t" 2>/dev/null | wc -l)" != 300 ]; do
	kill -0 $pid 2>/dev/null || fail "dscope exited: $(cat "$dir/err")"
	sleep 0.1
done
child=$(pgrep -P $pid)
kill -9 $pid
wait $pid 2>/dev/null
[ -n "$child" ] && kill $child
[ -e "$dir/t/.dscope-complete" ] && fail "a trace cut short is marked complete"
bt=$(babeltrace2 "$dir/t" 2>"$dir/bterr" | wc -l) || fail "babeltrace2: $(cat "$dir/bterr")"
[ "$bt" = 300 ] || fail "babeltrace2 read $bt events of the cut trace, want 300"
out=$($D -q -x replay="$dir/t" -n 'syscall::getppid:entry { @[execname] = count(); }' 2>"$dir/err2") ||
	fail "replay exit $?: $(cat "$dir/err2")"
echo "$out" | grep -Eq "^ *$l +300\$" || fail "replay counted: $out"
grep -q "was cut short (its recorder did not finish): replaying the 300 events before the cut" "$dir/err2" ||
	fail "replay did not say the trace was cut short: $(cat "$dir/err2")"
echo "cut by SIGKILL: babeltrace2 read $bt events, replay counted $l 300 and said: $(cat "$dir/err2")"
exit 0
