# Several new keys of one aggregation in one firing of a tick, for every
# aggregating function (aggkeys/newkeys-tick.d says what): every key, as
# DTrace shows them.  In an emulated guest the tick's firings come back
# to back as its timer catches up, before the kernel refills its cache
# of new values (cg_agg.c, "lanes"), so there a key may still be lost --
# but never silently: the output may differ only where dscope reports
# aggregation drops.
. tests/sh/lib.sh
t=tests/sh/aggkeys/newkeys-tick
err=$(mktemp)
trap 'rm -f "$err"' EXIT
out=$($D -q -s $t.d 2>"$err") || fail "exit $?: $(cat "$err")"
[ "$out" = "$(cat $t.out)" ] && exit 0
if [ -n "$DSCOPE_TEST_VM" ] && grep -q 'aggregation drop' "$err"; then
	echo "in this guest: $(grep 'aggregation drop' "$err" | head -1)"
	exit 0
fi
diff <(echo "$out") $t.out
fail "output differs, drops reported: $(grep -c 'aggregation drop' "$err")"
