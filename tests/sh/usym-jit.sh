# JIT code named from /tmp/perf-PID.map (obj/perfmap.h): build/targets/jitter
# writes two functions into an anonymous page, names them in its perf map,
# calls jit_getppid 5 times and jit_getppid_2 twice (getppid from JIT
# code, the user pc 7 bytes in), and its helper removes the map as it
# ends.  Both the caller and the one-frame stack must name the JIT
# functions by the map, and the map must be gone after.  (Deeper frames
# are not compared: the JIT code has no .eh_frame and no frame of its
# own, so the frame-pointer fallback skips its caller.)
. tests/sh/lib.sh
out=$($D -q -n 'syscall::getppid:entry /pid == $target/ {
	@[ufunc(ucaller)] = count(); @s[ustack(1)] = count(); }
	END { printf("pid %d\n", $target); }' -c "$B/targets/jitter 5" 2>&1)
rc=$?
[ $rc = 0 ] || fail "exit $rc: $out"
pid=$(echo "$out" | sed -n 's/^pid //p')
[ -n "$pid" ] || fail "no pid: $out"
# keys are padded to a width that depends on the pid's digits: compare
# with runs of spaces squeezed
want=$(printf '%s\n' "pid $pid" '' \
	" perf-$pid.map\`jit_getppid_2 2" \
	" perf-$pid.map\`jit_getppid 5" '' \
	" perf-$pid.map\`jit_getppid_2+0x7" \
	' 2' '' \
	" perf-$pid.map\`jit_getppid+0x7" \
	' 5')
got=$(echo "$out" | tr -s ' ')
[ "$got" = "$want" ] || fail "got:
$got
want:
$want"
# the helper unlinks the map once jitter has ended
for i in $(seq 100); do [ -e /tmp/perf-$pid.map ] || exit 0; sleep 0.1; done
rm -f /tmp/perf-$pid.map
fail "/tmp/perf-$pid.map was not removed"
