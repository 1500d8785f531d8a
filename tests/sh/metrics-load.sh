# The metrics endpoint scraped hard: 200 scrapers at once, over TLS with
# basic authentication, for METRICS_LOAD_SECONDS (10 here; 60 for the
# figures in the issue), while dscope traces a loop of known size.  The
# answer must not change (the END count and the last scrape are the
# loop's calls exactly; no scrape ever sees the counter go down), no
# scrape may fail or find no room (excess scrapers wait in the listen
# queue), and memory must stay bounded: the peak is at most what
# CONNECTIONS responses cost, and a second half of the load adds nothing.
. tests/sh/lib.sh
for t in curl openssl python3; do
	command -v $t >/dev/null || fail "$t missing: run scripts/install-deps.sh"
done
secs=${METRICS_LOAD_SECONDS:-10}
tmp=$(mktemp -d)
pids=""
cleanup() {
	for p in $pids; do kill "$p" 2>/dev/null; done
	wait 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
wait_for() {	# up to 30 s for CMD to succeed
	local i
	for i in $(seq 300); do eval "$1" >/dev/null 2>&1 && return 0; sleep 0.1; done
	return 1
}
rss() { awk -v k="$2:" '$1 == k { print $2 }' /proc/$1/status; }

openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes \
	-keyout "$tmp/server.key" -out "$tmp/server.crt" -days 2 -subj /CN=dscope \
	-addext subjectAltName=IP:127.0.0.1 2>"$tmp/err" || fail "openssl: $(cat $tmp/err)"
hash=$(python3 -W ignore -c 'import crypt; print(crypt.crypt("s3cret", crypt.mksalt(crypt.METHOD_BLOWFISH, rounds=1024)))')
printf 'tls_server_config:\n  cert_file: server.crt\n  key_file: server.key\nbasic_auth_users:\n  scraper: %s\n' \
	"$hash" >"$tmp/web.yml"

n=400000
mkfifo "$tmp/go"
( read x <"$tmp/go"; exec $B/targets/loop $n ) &
loop=$!; pids="$pids $loop"
$D -s /dev/stdin $loop -x metrics=127.0.0.1:0 -x metrics_webconfig="$tmp/web.yml" \
	>"$tmp/d.out" 2>"$tmp/d.err" <<'EOF' &
syscall::getppid:entry /pid == $1/ { @calls = count(); @bytid[tid] = count(); }
syscall::getppid:return /pid == $1/ { @lat = quantize(arg0 + 1); }
EOF
dscope=$!; pids="$pids $dscope"
wait_for "grep -q 'metrics at https' $tmp/d.err" || fail "dscope never served: $(cat $tmp/d.err)"
url=$(sed -n 's/.*metrics at //p' "$tmp/d.err")
curl -sf --cacert "$tmp/server.crt" -u scraper:s3cret "$url" >/dev/null || fail "first scrape"
rss0=$(rss $dscope VmRSS)

# the first half: 200 scrapers while the loop runs
python3 tests/tools/scrapers.py "$url" "$tmp/server.crt" scraper s3cret 200 $((secs / 2)) \
	dscope_calls_total >"$tmp/s1" 2>&1 &
s1=$!
sleep 1
echo go >"$tmp/go"
wait $loop
wait $s1 || fail "first half: $(cat $tmp/s1)"
rss1=$(rss $dscope VmRSS)
# the second half: the same load on a finished count
python3 tests/tools/scrapers.py "$url" "$tmp/server.crt" scraper s3cret 200 $((secs - secs / 2)) \
	dscope_calls_total >"$tmp/s2" 2>&1 || fail "second half: $(cat $tmp/s2)"
rss2=$(rss $dscope VmRSS) hwm=$(rss $dscope VmHWM)
grep -q "last $n\$" "$tmp/s2" || fail "the last scrape is not $n: $(cat $tmp/s2)"
kill -INT $dscope; wait $dscope || fail "dscope: $(cat $tmp/d.err)"
awk -v n=$n 'NF == 1 && $1 == n { found = 1 } END { exit !found }' "$tmp/d.out" ||
	fail "END: @calls is not $n: $(head -5 $tmp/d.out)"
echo "200 scrapers, $secs s: $(head -1 $tmp/s1) | $(head -1 $tmp/s2)"
echo "RSS: ${rss0} kB before, ${rss1} kB after the first half, ${rss2} kB after the second; peak ${hwm} kB"
# bounded: 64 connections' TLS sessions and buffers are some megabytes,
# and the second half of the load must not grow what the first left
[ $((hwm - rss0)) -lt 32768 ] || fail "peak RSS grew by $((hwm - rss0)) kB under load"
[ $((rss2 - rss1)) -lt 2048 ] || fail "RSS grew by $((rss2 - rss1)) kB in the second half"
exit 0
