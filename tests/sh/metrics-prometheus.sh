# Many hosts: a real Prometheus scrapes two dscopes, each in a network
# namespace of its own (two "hosts"), each tracing its own loop process
# (12345 and 54321 getppid calls, both named loop).  PromQL's
# sum by (execname) must equal the sum of what the two printed at END,
# and histogram_quantile() of a quantize() must fall in the bucket the
# text output shows.  Prometheus runs in a third namespace; every
# address is on the veth pairs between them.  Plain HTTP to addresses
# other than loopback is asked for by name (-x metrics_insecure): the
# namespaces are this test's own; TLS and authentication are
# tests/sh/metrics-tls.sh's.
. tests/sh/lib.sh
for t in prometheus curl ip nsenter; do
	command -v $t >/dev/null || fail "$t missing: run scripts/install-deps.sh"
done
tmp=$(mktemp -d)
ns=dscope-m$$
pids=""
cleanup() {
	for p in $pids; do kill "$p" 2>/dev/null; done
	wait 2>/dev/null
	for i in 0 1 2; do ip netns del $ns-$i 2>/dev/null; done
	rm -rf "$tmp"
}
trap cleanup EXIT
# nsenter enters the network namespace only (ip netns exec would mount
# a sysfs of its own); run in the background it is the command's pid
in_ns() { local n=$1; shift; nsenter --net=/run/netns/$ns-$n "$@"; }
if ! ip netns add $ns-0 2>"$tmp/err"; then
	echo "metrics-prometheus: cannot create a network namespace: $(cat $tmp/err)"; exit 77
fi
ip netns add $ns-1 && ip netns add $ns-2 || fail "ip netns add"
# ns-0 <-> ns-i on 10.231.i.0/24: Prometheus at .1, dscope i at .2
for i in 1 2; do
	ip link add dsm$$a$i netns $ns-0 type veth peer name dsm$$b$i netns $ns-$i ||
		fail "veth pair $i"
	in_ns 0 ip addr add 10.231.$i.1/24 dev dsm$$a$i
	in_ns $i ip addr add 10.231.$i.2/24 dev dsm$$b$i
	in_ns 0 ip link set dsm$$a$i up
	in_ns $i ip link set dsm$$b$i up
	in_ns $i ip link set lo up
done
in_ns 0 ip link set lo up
wait_for() {	# up to 30 s for CMD to succeed
	local i
	for i in $(seq 300); do eval "$1" >/dev/null 2>&1 && return 0; sleep 0.1; done
	return 1
}

cat >"$tmp/calls.d" <<'EOF'
syscall::getppid:entry /pid == $1/
{
	@calls[execname] = count();
	self->ts = timestamp;
}
syscall::getppid:return /self->ts/
{
	@lat = quantize(timestamp - self->ts);
	self->ts = 0;
}
EOF
n1=12345 n2=54321
for i in 1 2; do
	mkfifo "$tmp/go$i"
	# the loop's pid is known before it runs: the subshell execs it
	( read x <"$tmp/go$i"; exec $B/targets/loop $(eval echo \$n$i) ) &
	eval "loop$i=$!"; pids="$pids $!"
	nsenter --net=/run/netns/$ns-$i $D -q -s "$tmp/calls.d" $(eval echo \$loop$i) \
		-x metrics=10.231.$i.2:9101 -x metrics_insecure >"$tmp/d$i.out" 2>"$tmp/d$i.err" &
	eval "dscope$i=$!"; pids="$pids $!"
done
cat >"$tmp/prometheus.yml" <<EOF
global:
  scrape_interval: 1s
scrape_configs:
  - job_name: dscope
    static_configs:
      - targets: ['10.231.1.2:9101', '10.231.2.2:9101']
EOF
nsenter --net=/run/netns/$ns-0 prometheus --config.file="$tmp/prometheus.yml" --storage.tsdb.path="$tmp/data" \
	--web.listen-address=127.0.0.1:9090 >"$tmp/prom.log" 2>&1 &
pids="$pids $!"
api=http://127.0.0.1:9090/api/v1
# query PROMQL: the value of its first result, or nothing
query() {
	in_ns 0 curl -sf --get "$api/query" --data-urlencode "query=$1" |
		sed -n 's/.*"value":\[[0-9.]*,"\([^"]*\)"\].*/\1/p'
}

# each dscope answers once its probes are attached: then the loops run
for i in 1 2; do
	wait_for "in_ns 0 curl -sf http://10.231.$i.2:9101/metrics" ||
		fail "dscope $i never served: $(cat $tmp/d$i.err)"
	echo go >"$tmp/go$i"
done
wait $loop1 $loop2
wait_for 'in_ns 0 curl -sf http://127.0.0.1:9090/-/ready' || fail "prometheus never ready: $(tail $tmp/prom.log)"
want=$((n1 + n2))
q='sum by (execname) (dscope_calls_total)'
wait_for "[ \"\$(query '$q')\" = $want ] && [ \"\$(query 'sum(dscope_lat_count)')\" = $want ]" ||
	fail "$q is '$(query "$q")', not $want; targets: $(in_ns 0 curl -s $api/targets)"
promql=$(in_ns 0 curl -sf --get "$api/query" --data-urlencode "query=$q")
echo "$promql" | grep -q '"metric":{"execname":"loop"}' || fail "no execname label: $promql"
sum=$(query "$q")	# before the dscopes stop: their series go stale then
p50=$(query 'histogram_quantile(0.5, dscope_lat_bucket{instance="10.231.1.2:9101"})')
for i in 1 2; do
	kill -INT $(eval echo \$dscope$i); wait $(eval echo \$dscope$i) || fail "dscope $i: $(cat $tmp/d$i.err)"
done
printed=0
for i in 1 2; do
	c=$(awk '$1 == "loop" { print $2 }' "$tmp/d$i.out")
	[ "$c" = "$(eval echo \$n$i)" ] || fail "dscope $i printed '$c': $(cat $tmp/d$i.out)"
	printed=$((printed + c))
done
[ "$sum" = "$printed" ] || fail "PromQL $sum != printed $printed"
# the median's bucket in dscope 1's text: the first whose running count
# reaches half the total (histogram_quantile's rule); it holds
# [value, next value - 1], so p50 is in (value - 1, next value - 1]
read lo hi <<EOF
$(awk '/value  -+ Distribution/ { on = 1; next }
	on && NF >= 3 { v[n] = $1; c[n] = $NF; tot += $NF; n++ }
	END { for (i = 0; i < n; i++) { run += c[i]; if (2 * run >= tot) { print v[i], v[i + 1]; exit } } }' "$tmp/d1.out")
EOF
awk -v q="$p50" -v lo="$lo" -v hi="$hi" 'BEGIN { exit !(q > lo - 1 && q <= hi - 1) }' ||
	fail "histogram_quantile(0.5) = $p50, outside [$lo, $hi) printed: $(cat $tmp/d1.out)"
echo "$q = $sum (printed $n1 + $n2); p50 $p50 in [$lo, $hi)"
echo "$promql"
exit 0
