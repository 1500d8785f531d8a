# -x record with bufpolicy=ring is a flight recorder: each CPU keeps its
# newest bufsize bytes of firings in memory, and they reach the trace
# when something happens -- a clause's exit() (the incident), or SIGUSR1
# (a snapshot, and recording goes on).  The workload numbers its calls:
# `counted lseek N F` calls lseek(-1, F + i) for i = 0 .. N-1, pinned to
# one CPU, so the newest K firings are exactly the offsets up to the
# last, and every one that was let go is counted as overwritten.  With
# buftime, the ring keeps only the last span of time before the newest
# firing as well.
. tests/sh/lib.sh
need_babeltrace2
dir=$(mktemp -d)
trap 'kill -9 $pid 2>/dev/null; rm -rf "$dir"' EXIT
c=fr$$		# a name of its own: other tests may run counted meanwhile
cp "$B/targets/counted" "$dir/$c"

# offsets "lo hi n" of the trace's lseek events: n of them, lo..hi
offsets() {
	babeltrace2 "$1" | sed -n 's/.*lseek:entry:.* arg1 = \([0-9]*\),.*/\1/p' |
		sort -n | awk 'NR == 1 { lo = $1 } { hi = $1; n++ } END { print lo, hi, n }'
}

# 1. The incident is a clause: exit() at the 5000th call keeps the
# newest firings before it, and says how many older ones went.
$D -q -x record="$dir/a" -x bufpolicy=ring -x bufsize=64k -n "
	syscall::lseek:entry /execname == \"$c\"/ {}
	syscall::lseek:entry /execname == \"$c\" && arg1 == 5000/ { exit(0); }" \
	-c "taskset -c 0 $dir/$c lseek 6000 1" 2>"$dir/err" ||
	fail "recording exit $?: $(cat "$dir/err")"
k=$(recorded_count "$dir/err") || exit 1
[ "$k" -gt 0 ] && [ "$k" -lt 5000 ] || fail "a 64k ring kept $k of 5000 firings: $(cat "$dir/err")"
read -r lo hi n <<EOF
$(offsets "$dir/a")
EOF
[ "$n" = "$k" ] || fail "babeltrace2 read $n events, dscope recorded $k"
[ "$hi" = 5000 ] && [ "$lo" = $((5001 - k)) ] ||
	fail "the ring kept offsets $lo..$hi, want the newest $k: $((5001 - k))..5000"
grep -q "^dscope: bufpolicy=ring kept each CPU's newest 65536 bytes: $((5000 - k)) older records were overwritten$" \
	"$dir/err" || fail "want $((5000 - k)) overwritten said: $(cat "$dir/err")"
# the flight recording replays as any trace
out=$($D -q -x replay="$dir/a" -n 'syscall::lseek:entry { @n = count(); @lo = min(arg1); }
	END { printa("%@d %@d\n", @n, @lo); }' 2>"$dir/rerr") || fail "replay exit $?: $(cat "$dir/rerr")"
[ "$(echo "$out" | tr -d '\n')" = "$k $lo" ] || fail "replay printed '$out', want '$k $lo'"
ka=$k

# 2. SIGUSR1 saves what the ring holds and recording goes on: a
# snapshot after the first 3000 calls, the rest written at the end.
mkfifo "$dir/go"
$D -q -x record="$dir/b" -x bufpolicy=ring -x bufsize=64k \
	-n "syscall::lseek:entry /execname == \"$c\"/ {}" \
	-c "taskset -c 0 sh -c '$dir/$c lseek 3000 1; touch $dir/phase1; read x < $dir/go; $dir/$c lseek 3000 3001'" \
	2>"$dir/err2" &
pid=$!
until [ -e "$dir/phase1" ]; do
	kill -0 $pid 2>/dev/null || fail "dscope exited: $(cat "$dir/err2")"
	sleep 0.1
done
kill -USR1 $pid
until grep -q '^dscope: saved' "$dir/err2"; do
	kill -0 $pid 2>/dev/null || fail "dscope exited: $(cat "$dir/err2")"
	sleep 0.1
done
k1=$(sed -n 's/^dscope: saved \([0-9]*\) events to .*/\1/p' "$dir/err2")
read -r lo hi n <<EOF
$(offsets "$dir/b")
EOF
[ "$n" = "$k1" ] && [ "$hi" = 3000 ] && [ "$lo" = $((3001 - k1)) ] ||
	fail "the snapshot holds $n events, offsets $lo..$hi; dscope saved $k1: want $((3001 - k1))..3000"
echo go > "$dir/go"
wait $pid || fail "recording exit $?: $(cat "$dir/err2")"
pid=
k=$(recorded_count "$dir/err2") || exit 1
k2=$((k - k1))
n=$(babeltrace2 "$dir/b" | wc -l)
[ "$n" = "$k" ] || fail "babeltrace2 read $n events, dscope recorded $k"
lo2=$(babeltrace2 "$dir/b" | sed -n 's/.*lseek:entry:.* arg1 = \([0-9]*\),.*/\1/p' | awk '$1 > 3000' | sort -n | head -1)
hi2=$(babeltrace2 "$dir/b" | sed -n 's/.*lseek:entry:.* arg1 = \([0-9]*\),.*/\1/p' | sort -n | tail -1)
[ "$hi2" = 6000 ] && [ "$lo2" = $((6001 - k2)) ] ||
	fail "after the snapshot the ring kept offsets $lo2..$hi2, want the newest $k2: $((6001 - k2))..6000"

# 3. buftime bounds the ring by time too: at the save, the firings more
# than buftime before the newest are let go, and counted.  Three
# batches of 100 numbered calls with a sleep of 1 s between (sleep never
# returns early): the first batch is always more than 1.5 s before the
# last call, so some go however fast the machine; which of the others
# stay is read from the timestamps the live clause printed (timestamp is
# one value per firing, recorded and printed alike).
$D -q -x record="$dir/c" -x bufpolicy=ring -x buftime=1500ms -n "
	syscall::lseek:entry /execname == \"$c\"/ {}
	syscall::lseek:entry /execname == \"$c\"/ { printf(\"%d %d\\n\", arg1, timestamp); }" \
	-c "sh -c '$dir/$c lseek 100 1; sleep 1; $dir/$c lseek 100 101; sleep 1; $dir/$c lseek 100 201'" \
	>"$dir/live" 2>"$dir/err3" || fail "recording exit $?: $(cat "$dir/err3")"
k3=$(recorded_count "$dir/err3") || exit 1
[ "$(grep -c . "$dir/live")" = 300 ] || fail "live printed $(grep -c . "$dir/live") firings, want 300"
want=$(sort -k2,2n "$dir/live" | awk '{ o[NR] = $1; t[NR] = $2 }
	END { for (i = 1; i <= NR; i++) if (t[NR] - t[i] <= 1500000000) print o[i] }' | sort -n)
got=$(babeltrace2 "$dir/c" | sed -n 's/.*lseek:entry:.* arg1 = \([0-9]*\),.*/\1/p' | sort -n)
[ "$got" = "$want" ] || fail "buftime=1500ms kept offsets $(echo $got | tr ' ' ,), want the last 1.5 s: $(echo $want | tr ' ' ,)"
[ "$(echo "$got" | grep -c .)" = "$k3" ] || fail "babeltrace2 read $(echo "$got" | grep -c .) events, dscope recorded $k3"
[ "$(echo "$got" | head -1)" -gt 100 ] || fail "buftime=1500ms kept calls of the first batch: $(echo $got | tr ' ' ,)"
grep -qx "dscope: buftime kept the firings of the 1.5 s before the newest: $((300 - k3)) older were let go" \
	"$dir/err3" || fail "want $((300 - k3)) let go said: $(cat "$dir/err3")"
echo "exit() at call 5000: kept $ka ($((5001 - ka))..5000); SIGUSR1 after call 3000: saved $k1 ($((3001 - k1))..3000), at the end $k2 more ($lo2..6000); buftime=1500ms kept $k3 of 300 ($(echo "$got" | head -1)..300)"
exit 0
