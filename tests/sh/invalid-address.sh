# A bad pointer reports DTrace's error on stderr -- the enabled probe, the
# probe, the address and the action -- abandons that clause only, and
# tracing goes on.
. tests/sh/lib.sh
out=$($D -q -n 'BEGIN { trace(*(int *)8); } BEGIN { printf("still here\n"); exit(0); }' 2>&1)
rc=$?
[ $rc = 0 ] || fail "exit $rc: $out"
echo "$out" | grep -qx "dscope: error on enabled probe ID 1 (ID 1: dtrace:::BEGIN): invalid address (0x8) in action #1" ||
	fail "no error report: $out"
echo "$out" | grep -qx "still here" || fail "the next clause did not run: $out"
exit 0
