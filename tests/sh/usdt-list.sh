# usdt probes as -l and -lv show them: provider NAMEpid, the module,
# the function holding the site, the name with __ shown as -, and
# argument types from the notes' sizes.  The -c command is listed
# without ever running.
. tests/sh/lib.sh
out=$($D -l -n 'usdtprog$target:::' -c "$B/targets/usdtprog") || fail "-l: $out"
rows=$(echo "$out" | sed 1d | awk '{ sub(/[0-9]+$/, "", $2); print $2, $3, $4, $5 }')
want="usdtprog usdtprog fire fire
usdtprog usdtprog fire neg-arg
usdtprog usdtprog gated gated
usdtprog usdtprog main twice"
[ "$rows" = "$want" ] || fail "rows: $rows"
out=$($D -lv -n 'usdtprog$target::fire:fire' -c "$B/targets/usdtprog") || fail "-lv: $out"
types=$(echo "$out" | sed -n 's/^[[:space:]]*args\[\([0-9]\)\]: /\1 /p' | tr '\n' ' ')
[ "$types" = "0 int32_t 1 int64_t 2 uint8_t 3 int16_t 4 int32_t 5 int64_t " ] ||
	fail "fire's argument types: $types"
n=$($D -l -n 'usdtprog$target:::neg__arg' -c "$B/targets/usdtprog" | grep -c ' neg-arg$')
[ "$n" = 1 ] || fail "neg__arg matched $n probes"
exit 0
