# examples/usdt end to end: the server built through dscope -h and -G,
# then both scripts run on it: every request's latency is counted under
# its reason (each of the 2 threads makes N requests), and contended
# waits, when the threads happened to contend (timing decides), are shown
# with the stacks that waited.
. tests/sh/lib.sh
[ -f /usr/include/x86_64-linux-gnu/sys/sdt.h ] || [ -f /usr/include/sys/sdt.h ] ||
	{ echo "no <sys/sdt.h>: install systemtap-sdt-dev"; exit 77; }
D=$(realpath "$D")
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
cp examples/usdt/server.c examples/usdt/Makefile \
   examples/usdt/*.d "$T"/ || fail "copy"
make -s -C "$T" DTRACE="$D" >/dev/null 2>&1 || fail "examples/usdt does not build"

out=$(cd "$T" && $D -qs latency-by-reason.d -c './server 30' 2>&1) ||
	fail "latency-by-reason.d: $out"
total=$(echo "$out" | awk '/\|/ { n += $NF } END { print n }')
[ "$total" = 60 ] || fail "latency-by-reason counted $total requests, want 60: $out"
for r in static query rebuild; do
	echo "$out" | grep -q "^  $r" || fail "no $r latencies: $out"
done

out=$(cd "$T" && $D -qs lock-contention.d -c './server 30' 2>&1) ||
	fail "lock-contention.d: $out"
echo "$out" | grep -q '^LOCK  *WAITS' || fail "no lock table: $out"
if echo "$out" | grep -q '^[0-9a-f]\{6,\}  *[1-9]'; then
	echo "$out" | grep -q 'server`cache_enter' || fail "no waiting stack: $out"
fi
exit 0
