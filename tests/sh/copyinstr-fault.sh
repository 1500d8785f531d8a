# copyinstr() and copyin() of user memory the process never touched
# (issue 16): coldstr hands a USDT probe and a function string literals
# on pages not in its page tables, and reports each page's present bit
# before and after.  Where the kernel takes sleepable uprobe programs
# (dscope -vV: sleep_uprobe), the strings print and the probe is what
# made the page present; without (the capability disabled, or absent),
# each read is DTrace's "invalid address", naming the literal, and the
# page stays out -- as every tracer did before.  Both ways of faulting a
# string in are run: the bpf_copy_from_user_str kfunc (copy_str), and a
# byte read of each page, then the copy again.
. tests/sh/lib.sh
err=$(mktemp)
trap 'rm -f "$err"' EXIT
script='shop$target:::order-placed { printf("%d %s\n", arg0, copyinstr(arg1)); }
	shop$target:::order-placed { printf("first %c\n", *(char *)copyin(arg1, 4)); }
	pid$target::take_title:entry { printf("title %s\n", copyinstr(arg0)); }'
caps=$($D -vV 2>&1)
run() {
	out=$(DSCOPE_CAPS_DISABLE=$1 $D -q -n "$script" -c "$B/targets/coldstr" 2>"$err") ||
		fail "$1: exit $?: $(cat "$err") $out"
	echo "$out" | grep -q "present before" && fail "coldstr's premise failed: $out"
}
faults() {	# $1: the capabilities disabled
	run "$1"
	for want in "1 book" "first b" "title dune" "usdt before 0 after 1" \
		    "pid before 0 after 1"; do
		echo "$out" | grep -qx "$want" || fail "${1:-none disabled}: no '$want' in: $out"
	done
	[ -s "$err" ] && fail "${1:-none disabled}: $(cat "$err")"
	return 0
}
echo "$caps" | grep -q '^  sleep_uprobe *yes' && {
	echo "$caps" | grep -q '^  copy_str *yes' && faults ""
	faults copy_str
}
run sleep_uprobe
for want in "usdt before 0 after 0" "pid before 0 after 0"; do
	echo "$out" | grep -qx "$want" || fail "without sleep_uprobe: no '$want' in: $out"
done
echo "$out" | grep -q "book\|dune" && fail "without sleep_uprobe, a string was read: $out"
for probe in "shop[0-9]*:coldstr:fire_usdt:order-placed" "pid[0-9]*:coldstr:take_title:entry"; do
	grep -q "(ID [0-9]*: $probe): invalid address (0x[0-9a-f]*0000) in action #1" "$err" ||
		fail "without sleep_uprobe, no error at $probe: $(cat "$err")"
done
exit 0
