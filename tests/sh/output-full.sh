# Output that cannot be written is never lost silently: -o to a file
# system that fills up (a 64 KiB tmpfs of the test's own) stops tracing
# with dtrace(1)'s "processing aborted" and the reason, and exit status 1;
# the same for standard output redirected there, and for output that
# only the final aggregation printout overflows.
. tests/sh/lib.sh
dir=$(mktemp -d)
trap 'umount "$dir" 2>/dev/null; rmdir "$dir"' EXIT
mount -t tmpfs -o size=64k tmpfs "$dir" || { echo "SKIP: cannot mount a tmpfs"; exit 77; }
flood='tick-1ms /i++ < 5000/ { printf("line %d, long enough to fill 64 KiB in a few thousand\n", i); }
tick-1ms /i > 5000/ { exit(0); }'
want="dscope: processing aborted: No space left on device"

err=$($D -q -o "$dir/out" -n "$flood" 2>&1 >/dev/null)
rc=$?
[ $rc = 1 ] || fail "-o: exit $rc, stderr '$err'"
[ "$err" = "$want" ] || fail "-o: stderr '$err', want '$want'"

rm -f "$dir/out"
err=$($D -q -n "$flood" 2>&1 >"$dir/out")
rc=$?
[ $rc = 1 ] || fail "stdout: exit $rc, stderr '$err'"
[ "$err" = "$want" ] || fail "stdout: stderr '$err', want '$want'"

rm -f "$dir/out"
err=$($D -q -o "$dir/out" -n 'tick-1ms /i++ < 4000/ { @[i] = sum(i); } tick-1ms /i > 4000/ { exit(0); }' 2>&1 >/dev/null)
rc=$?
[ $rc = 1 ] || fail "aggregations: exit $rc, stderr '$err'"
[ "$err" = "$want" ] || fail "aggregations: stderr '$err', want '$want'"

# and a run whose output fits still exits 0 with all of it
rm -f "$dir/out"
$D -q -o "$dir/out" -n 'BEGIN { printf("fits\n"); exit(0); }' || fail "small output: exit $?"
[ "$(cat "$dir/out")" = "fits" ] || fail "small output: '$(cat "$dir/out")'"
exit 0
