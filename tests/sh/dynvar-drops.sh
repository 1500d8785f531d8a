# Running out of dynamic variable space is counted and reported, exactly:
# 1000 distinct keys into an array with room for 64 (dynvarsize=2k gives
# the 64-entry minimum) drop 936 stores, reported per CPU.
. tests/sh/lib.sh
err=$($D -q -x dynvarsize=2k -n 'syscall::getppid:entry /pid == $target/ { a[i++] = 1; }' \
	-c "$B/targets/loop 1000" 2>&1 >/dev/null) || fail "exit $?: $err"
total=$(echo "$err" | sed -n 's/^dscope: \([0-9]*\) dynamic variable drops* on CPU [0-9]*$/\1/p' |
	awk '{ s += $1 } END { print s + 0 }')
[ "$total" = 936 ] || fail "reported $total drops, want 936: $err"
exit 0
