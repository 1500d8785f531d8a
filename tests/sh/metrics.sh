# -x metrics on loopback: what /metrics serves against what the workload
# did (loop N calls getppid N times), promtool's verdict on the text,
# counters that stay whole across clear() and trunc(), label names,
# escaping, stacks, the size bound, the read-only server, bad input.
. tests/sh/lib.sh
command -v promtool >/dev/null || fail "promtool missing: run scripts/install-deps.sh"
command -v curl >/dev/null || fail "curl missing: run scripts/install-deps.sh"
tmp=$(mktemp -d)
pids=""
cleanup() {
	for p in $pids; do kill "$p" 2>/dev/null; done
	wait 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
# wait_for CMD: up to 10 s for CMD to succeed
wait_for() {
	local i
	for i in $(seq 100); do eval "$1" >/dev/null 2>&1 && return 0; sleep 0.1; done
	return 1
}
# start NAME ARGS...: dscope in the background; sets url to its /metrics
start() {
	local name=$1; shift
	$D "$@" >"$tmp/$name.out" 2>"$tmp/$name.err" &
	pids="$pids $!"
	eval "${name}_pid=$!"
	wait_for "grep -q 'metrics at' $tmp/$name.err" || fail "$name never served: $(cat $tmp/$name.err)"
	url=$(sed -n 's/.*metrics at //p' "$tmp/$name.err")
}
scrape() { curl -sf "$url" >"$tmp/scrape" && cat "$tmp/scrape"; }
# value METRIC{LABELS}: its value in a fresh scrape
value() { scrape | awk -v m="$1" '$1 == m { print $2 }'; }

# progenyof($1), $1 this shell: other loops on the machine do not count
cp $B/targets/loop "$tmp/loop"
cp $B/targets/loop "$tmp/clear\"er"
cat >"$tmp/m.d" <<'EOF'
syscall::getppid:entry /execname == "loop" && progenyof($1)/
{
	@c[execname] = count();
	@t[execname] = count();
	@st[execname, ustack()] = count();
	@[pid] = sum(2);
	@calls = count();
	@most = max(pid);
	self->ts = timestamp;
}
syscall::getppid:return /self->ts/
{
	@lat = quantize(timestamp - self->ts);
	@big[pid] = lquantize(1, 0, 4, 1);
	self->ts = 0;
}
syscall::getppid:entry /execname == "clear\"er" && progenyof($1)/
{
	@who[execname] = count();
	clear(@c);
	trunc(@t);
	printf("cleared\n");
}
EOF

start a -s "$tmp/m.d" -x metrics=0 -x metrics_labels=@t:program $$
case $url in http://127.0.0.1:*/metrics) ;; *) fail "a bare port must bind loopback: $url" ;; esac
# before any event: the unlabelled count and histogram are there at
# zero (Prometheus' clients start an unlabelled counter so); max has no value
scrape >"$tmp/none" || fail "scrape failed"
grep -qx 'dscope_calls_total 0' "$tmp/none" && grep -qx 'dscope_lat_count 0' "$tmp/none" &&
	grep -qx 'dscope_lat_bucket{le="+Inf"} 0' "$tmp/none" ||
	fail "no zero before the first event: $(cat $tmp/none)"
! grep -q '^dscope_most' "$tmp/none" || fail "max() before any value: $(grep dscope_most $tmp/none)"
! grep -q '^dscope_c_total' "$tmp/none" || fail "a keyed count before any key: $(grep dscope_c_ $tmp/none)"
promtool check metrics <"$tmp/none" || fail "promtool rejects the empty page: $(cat $tmp/none)"
"$tmp/loop" 1000 & lpid=$!; wait $lpid
wait_for '[ "$(value "dscope_c_total{execname=\"loop\"}")" = 1000 ]' ||
	fail "dscope_c_total never reached 1000: $(cat $tmp/scrape)"
scrape >"$tmp/before" || fail "scrape failed"
promtool check metrics <"$tmp/before" || fail "promtool rejects: $(cat $tmp/before)"
grep -qx 'dscope_t_total{program="loop"} 1000' "$tmp/before" || fail "metrics_labels: $(grep dscope_t $tmp/before)"
grep -qx 'dscope_st_total{execname="loop"} 1000' "$tmp/before" || fail "stacks not merged: $(grep dscope_st $tmp/before)"
grep -qx "dscope_total{pid=\"$lpid\"} 2000" "$tmp/before" || fail "@[pid] = sum(2): $(grep '^dscope_total' $tmp/before)"
grep -qx 'dscope_lat_count 1000' "$tmp/before" || fail "quantize count: $(grep dscope_lat $tmp/before)"
grep -qx 'dscope_calls_total 1000' "$tmp/before" || fail "keyless count: $(grep dscope_calls $tmp/before)"
grep -qx "dscope_most $lpid" "$tmp/before" || fail "max(pid): $(grep dscope_most $tmp/before)"
grep -qx 'dscope_lat_bucket{le="+Inf"} 1000' "$tmp/before" || fail "quantize +Inf"
# lquantize(1, 0, 4, 1): everything in [1, 1], the bucket below it empty
grep -qx "dscope_big_bucket{pid=\"$lpid\",le=\"0\"} 0" "$tmp/before" &&
	grep -qx "dscope_big_bucket{pid=\"$lpid\",le=\"1\"} 1000" "$tmp/before" ||
	fail "lquantize buckets: $(grep dscope_big $tmp/before)"

# clear() and trunc(): the kernel's counts restart, the exported ones go on
"$tmp/clear\"er" 1
wait_for "grep -q cleared $tmp/a.out" || fail "clear() never ran"
scrape >"$tmp/cleared"
grep -qx 'dscope_c_total{execname="loop"} 1000' "$tmp/cleared" || fail "clear() took the counter down: $(grep dscope_c $tmp/cleared)"
grep -qx 'dscope_t_total{program="loop"} 1000' "$tmp/cleared" || fail "trunc() took the counter away: $(grep dscope_t $tmp/cleared)"
grep -qx 'dscope_who_total{execname="clear\\"er"} 1' "$tmp/cleared" || fail "label value escaping: $(grep dscope_who $tmp/cleared)"
"$tmp/loop" 234
wait_for '[ "$(value "dscope_c_total{execname=\"loop\"}")" = 1234 ]' ||
	fail "after clear(), 1000 + 234 calls: $(grep dscope_c $tmp/scrape)"
grep -qx 'dscope_t_total{program="loop"} 1234' "$tmp/scrape" || fail "after trunc(): $(grep dscope_t $tmp/scrape)"

# read-only: other paths 404, other methods 405, and nothing changes
base=${url%/metrics}
[ "$(curl -s -o /dev/null -w '%{http_code}' "$base/")" = 404 ] || fail "GET / is not 404"
[ "$(curl -s -o /dev/null -w '%{http_code}' -X POST -d x "$url")" = 405 ] || fail "POST is not 405"
[ "$(curl -s -o /dev/null -w '%{http_code}' -X DELETE "$url")" = 405 ] || fail "DELETE is not 405"

# a port in use: one sentence, exit 1, nothing left attached
port=${url##*:}; port=${port%/metrics}
out=$($D -n 'BEGIN { exit(0); }' -x metrics=127.0.0.1:$port 2>&1); rc=$?
[ $rc = 1 ] && echo "$out" | grep -q "could not serve metrics on 127.0.0.1:$port: Address already in use" ||
	fail "port in use: exit $rc: $out"
kill -INT $a_pid; wait $a_pid
# END prints what the kernel has: 234 since clear()
grep -Eq '^ +loop +234$' "$tmp/a.out" || fail "END output: $(cat $tmp/a.out)"

# metrics_stacks: the frames as a label, outermost (the syscall entry) first
start s -n 'syscall::getppid:entry /execname == "loop" && progenyof($1)/ { @[stack()] = count(); }' -x metrics=127.0.0.1:0 -x metrics_stacks $$
"$tmp/loop" 10
wait_for 'scrape | grep -q "^dscope_total{stack=\"vmlinux\`entry_SYSCALL_64[^;]*;.*\"} 10$"' || fail "metrics_stacks: $(cat $tmp/scrape)"
promtool check metrics <"$tmp/scrape" || fail "promtool rejects stacks: $(cat $tmp/scrape)"
kill -INT $s_pid; wait $s_pid

# metrics_maxsize, set by pragmas as metrics is: whole rows left out,
# said once, still valid text
printf "#pragma D option metrics=127.0.0.1:0\n#pragma D option metrics_maxsize=200\nsyscall::getppid:entry /execname == \"loop\" && progenyof(\$1)/ { @[pid] = count(); }\n" >"$tmp/z.d"
start z -s "$tmp/z.d" $$
for i in 1 2 3 4 5 6; do "$tmp/loop" 1; done
wait_for 'scrape | grep -q "rows left out"' || fail "metrics_maxsize: $(cat $tmp/scrape)"
[ "$(wc -c <"$tmp/scrape")" -lt 300 ] || fail "response of $(wc -c <$tmp/scrape) bytes past metrics_maxsize=200"
promtool check metrics <"$tmp/scrape" || fail "promtool rejects a bounded response: $(cat $tmp/scrape)"
grep -q "rows left out of a response" "$tmp/z.err" || fail "no warning: $(cat $tmp/z.err)"
kill -INT $z_pid; wait $z_pid

# bad input: a sentence and exit 1
for bad in nonsense 1.2.3.4.5:80 127.0.0.1:99999 '[::1]' 'localhost:'; do
	out=$($D -n 'BEGIN { exit(0); }' -x "metrics=$bad" 2>&1); rc=$?
	[ $rc = 1 ] && echo "$out" | grep -qF "invalid metrics address '$bad'" || fail "metrics=$bad: exit $rc: $out"
done
out=$($D -n 'BEGIN { @a = count(); exit(0); }' -x metrics=0 -x metrics_labels=@nope:x 2>&1); rc=$?
[ $rc = 1 ] && echo "$out" | grep -q "invalid metrics_labels entry '@nope:x'" || fail "metrics_labels=@nope:x: exit $rc: $out"
out=$($D -n 'BEGIN { @a[1, 2] = count(); exit(0); }' -x metrics=0 -x metrics_labels=@a:x,x 2>&1); rc=$?
[ $rc = 1 ] && echo "$out" | grep -q "'x' cannot name a label of @a" || fail "metrics_labels=@a:x,x: exit $rc: $out"
exit 0
