# A usdt argument in memory that cannot be read is a run-time error in
# DTrace's words, naming the address, and tracing goes on (DESIGN.md
# 3.12): usdtopt fires opt:guarded(guard[0]) with guard's page made
# unreadable, and prints that page's address first.
. tests/sh/lib.sh
err=$(mktemp)
trap 'rm -f "$err"' EXIT
out=$($D -q -n 'opt$target:::guarded { trace(arg0); }
	opt$target:::guarded { printf("after %d\n", 1); }' \
	-c "$B/targets/usdtopt 10 guard" 2>"$err") || fail "exit $?: $(cat "$err")"
addr=$(echo "$out" | sed -n 's/^guard \(0x[0-9a-f]*\)$/\1/p')
[ -n "$addr" ] || fail "usdtopt printed no address: $out"
grep -q "error on enabled probe ID 1 (ID [0-9]*: opt[0-9]*:usdtopt:main:guarded): invalid address ($addr) in action #1" "$err" ||
	fail "no error naming $addr: $(cat "$err")"
echo "$out" | grep -q '^after 1$' || fail "the next clause did not run: $out"
exit 0
