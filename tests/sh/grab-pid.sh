# -p PID: $target is the process, and dscope ends when it exits.
. tests/sh/lib.sh
sleep 2 &
pid=$!
out=$($D -q -n 'syscall::clock_nanosleep:return /pid == $target/ { @ = count(); } END { printf("target %d gone\n", $target); }' -p $pid 2>&1)
rc=$?
[ $rc = 0 ] || fail "exit $rc: $out"
echo "$out" | grep -q "target $pid gone" || fail "no END output: $out"
exit 0
