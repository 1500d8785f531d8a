# print(): each tests/sh/print/NAME.d prints NAME.out once its addresses
# (which differ from run to run) read {ptr}.
. tests/sh/lib.sh
out=$(mktemp)
trap 'rm -f "$out"' EXIT
for t in tests/sh/print/*.d; do
	$D -s "$t" >"$out" 2>&1 || fail "$t: exit status $?: $(cat "$out")"
	sed 's/0x[0-9a-f]*/{ptr}/g' "$out" | diff -u "${t%.d}.out" - ||
		fail "$t: output differs"
done
exit 0
