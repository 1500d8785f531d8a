# -x replay drives tick-N by the trace's clock: the first tick N after
# the first event, then every N, each before the events recorded after
# it, none after the last event.  The workload sleeps 1 ms 2500 times
# (some 3 s); the ticks and what each has seen are checked against the
# timestamps babeltrace2 reads from the same trace.
. tests/sh/lib.sh
need_babeltrace2
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
c=rt$$		# a name of its own: other tests may run counted meanwhile
cp "$B/targets/counted" "$dir/$c"
$D -q -x record="$dir/t" -n "syscall::clock_nanosleep:entry, syscall::nanosleep:entry /execname == \"$c\"/ {}" \
	-c "$dir/$c sleep 2500" 2>"$dir/err" || fail "recording exit $?: $(cat "$dir/err")"
n=$(recorded_count "$dir/err") || exit 1
[ "$n" -ge 2500 ] || fail "recorded $n sleeps, want 2500"
out=$($D -q -x replay="$dir/t" -n '
	syscall:::entry /!start/ { start = timestamp; }
	syscall:::entry { n++; last = timestamp; }
	tick-1s { printf("tick %d %d\n", timestamp - start, n); }
	END { printf("end %d %d\n", last - start, n); }' 2>"$dir/rerr") ||
	fail "replay exit $?: $(cat "$dir/rerr")"
# the same from babeltrace2's clock: each second k until the last event,
# and how many events came before start + k s
want=$(babeltrace2 --clock-cycles "$dir/t" | sed -n 's/^\[0*\([0-9]*\)\].*/\1/p' | awk '
	NR == 1 { start = $1 } { ts[NR] = $1 }
	END {
		for (k = 1; start + k * 1000000000 <= ts[NR]; k++) {
			seen = 0
			for (i = 1; i <= NR; i++) if (ts[i] < start + k * 1000000000) seen++
			printf "tick %.0f %d\n", k * 1000000000, seen
		}
		printf "end %.0f %d\n", ts[NR] - start, NR
	}')
[ "$(echo "$out" | grep -c '^tick')" -ge 2 ] || fail "a replay of 2500 1 ms sleeps ticked less than twice: $out"
[ "$out" = "$want" ] || fail "replay printed
$out
babeltrace2's clock says
$want"
echo "$n events: $(echo "$out" | tr '\n' ';')"
exit 0
