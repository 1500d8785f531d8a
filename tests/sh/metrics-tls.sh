# -x metrics_webconfig: TLS and basic authentication in the exporter
# toolkit's format.  A real Prometheus scrapes dscope over TLS with the
# right password (up 1, the exact count of a known loop), with a wrong
# one (up 0, 401) and over plain HTTP (up 0); curl sees 401 with the
# challenge, the configured headers, $2b$ and $2y$ hashes.  An address
# other than loopback without the file is refused; bad files are one
# sentence each.  Everything runs in a network namespace of the test's
# own, so its fixed ports meet nobody else's.
. tests/sh/lib.sh
for t in prometheus curl openssl ip nsenter python3; do
	command -v $t >/dev/null || fail "$t missing: run scripts/install-deps.sh"
done
tmp=$(mktemp -d)
ns=dscope-t$$
pids=""
cleanup() {
	for p in $pids; do kill "$p" 2>/dev/null; done
	wait 2>/dev/null
	ip netns del $ns 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
if ! ip netns add $ns 2>"$tmp/err"; then
	echo "metrics-tls: cannot create a network namespace: $(cat $tmp/err)"; exit 77
fi
# in the background, nsenter itself (it execs the command) is the pid to
# signal, not a function's subshell
in_ns() { nsenter --net=/run/netns/$ns "$@"; }
in_ns ip link set lo up || fail "lo up"
wait_for() {	# up to 30 s for CMD to succeed
	local i
	for i in $(seq 300); do eval "$1" >/dev/null 2>&1 && return 0; sleep 0.1; done
	return 1
}

# a certificate for 127.0.0.1, and bcrypt hashes as crypt(3) writes them
# ($2b$; $2y$ is the same hash under htpasswd's prefix), at the lowest
# cost: the test checks the verification, not its price
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes \
	-keyout "$tmp/server.key" -out "$tmp/server.crt" -days 2 -subj /CN=dscope \
	-addext subjectAltName=IP:127.0.0.1 2>"$tmp/err" || fail "openssl: $(cat $tmp/err)"
openssl genpkey -algorithm ec -pkeyopt ec_paramgen_curve:prime256v1 \
	-out "$tmp/other.key" 2>/dev/null || fail "openssl genpkey"
bcrypt() {
	python3 -W ignore -c 'import crypt, sys; print(crypt.crypt(sys.argv[1], crypt.mksalt(crypt.METHOD_BLOWFISH, rounds=16)))' "$1"
}
alice=$(bcrypt 's3cret') bob=$(bcrypt 'hunter2')
bob='$2y$'${bob#\$2b\$}
case $alice in '$2b$04$'*) ;; *) fail "no bcrypt from crypt(3): '$alice'" ;; esac
cat >"$tmp/web.yml" <<EOF
# the exporter toolkit's format; paths relative to this file
tls_server_config:
  cert_file: server.crt
  key_file: "server.key"
  min_version: TLS12
http_server_config:
  headers:
    X-Content-Type-Options: nosniff
    X-Frame-Options: deny
basic_auth_users:
  alice: $alice
  'bob': '$bob'
EOF

n=12345
mkfifo "$tmp/go"
( read x <"$tmp/go"; exec $B/targets/loop $n ) &
loop=$!; pids="$pids $loop"
nsenter --net=/run/netns/$ns $D -s /dev/stdin $loop -x metrics=127.0.0.1:9100 -x metrics_webconfig="$tmp/web.yml" \
	>"$tmp/d.out" 2>"$tmp/d.err" <<'EOF' &
syscall::getppid:entry /pid == $1/ { @calls[execname] = count(); }
EOF
dscope=$!; pids="$pids $dscope"
wait_for "grep -q 'metrics at https://127.0.0.1:9100/metrics' $tmp/d.err" ||
	fail "dscope never served over TLS: $(cat $tmp/d.err)"
url=https://127.0.0.1:9100/metrics
code() { in_ns curl -s -o "$tmp/body" -D "$tmp/headers" -w '%{http_code}' --cacert "$tmp/server.crt" "$@" "$url"; }

# plain HTTP gets no HTTP answer; no credentials and wrong ones get 401
# and the challenge, and nothing of the trace
c=$(in_ns curl -s -o /dev/null -w '%{http_code}' http://127.0.0.1:9100/metrics)
[ "$c" = 000 ] || fail "plain HTTP answered $c"
for cred in "" "-u alice:wrong" "-u carol:s3cret" "-u bob:s3cret"; do
	c=$(code $cred)
	[ "$c" = 401 ] || fail "credentials '$cred': $c, not 401"
	grep -qi '^WWW-Authenticate: Basic realm="dscope"' "$tmp/headers" ||
		fail "401 without the challenge: $(cat $tmp/headers)"
	! grep -q dscope_ "$tmp/body" || fail "401 with the trace: $(cat $tmp/body)"
done
[ "$(code -u alice:s3cret)" = 200 ] || fail "alice refused: $(cat $tmp/body)"
grep -qi '^X-Content-Type-Options: nosniff' "$tmp/headers" &&
	grep -qi '^X-Frame-Options: deny' "$tmp/headers" || fail "headers: $(cat $tmp/headers)"
[ "$(code -u bob:hunter2)" = 200 ] || fail "bob (\$2y\$) refused: $(cat $tmp/body)"
[ "$(code -u alice:s3cret -X POST -d x)" = 405 ] || fail "POST is not 405"

cat >"$tmp/prometheus.yml" <<EOF
global:
  scrape_interval: 1s
scrape_configs:
  - job_name: dscope
    scheme: https
    tls_config:
      ca_file: $tmp/server.crt
    basic_auth:
      username: alice
      password: s3cret
    static_configs:
      - targets: ['127.0.0.1:9100']
  - job_name: wrong-password
    scheme: https
    tls_config:
      ca_file: $tmp/server.crt
    basic_auth:
      username: alice
      password: s3cret2
    static_configs:
      - targets: ['127.0.0.1:9100']
  - job_name: plain-http
    static_configs:
      - targets: ['127.0.0.1:9100']
EOF
nsenter --net=/run/netns/$ns prometheus --config.file="$tmp/prometheus.yml" --storage.tsdb.path="$tmp/data" \
	--web.listen-address=127.0.0.1:9090 >"$tmp/prom.log" 2>&1 &
pids="$pids $!"
api=http://127.0.0.1:9090/api/v1
query() {
	in_ns curl -sf --get "$api/query" --data-urlencode "query=$1" |
		sed -n 's/.*"value":\[[0-9.]*,"\([^"]*\)"\].*/\1/p'
}
echo go >"$tmp/go"
wait $loop
wait_for 'in_ns curl -sf http://127.0.0.1:9090/-/ready' || fail "prometheus never ready: $(tail $tmp/prom.log)"
wait_for "[ \"\$(query 'dscope_calls_total{job=\"dscope\",execname=\"loop\"}')\" = $n ]" ||
	fail "Prometheus has '$(query dscope_calls_total)', not $n; targets: $(in_ns curl -s $api/targets)"
sum=$(query 'dscope_calls_total{job="dscope"}')
[ "$(query 'up{job="dscope"}')" = 1 ] || fail "up{job=dscope} is not 1"
wait_for "[ \"\$(query 'up{job=\"wrong-password\"}')\" = 0 ] && [ \"\$(query 'up{job=\"plain-http\"}')\" = 0 ]" ||
	fail "a scrape without the right credentials or TLS is up: $(in_ns curl -s $api/targets)"
[ -z "$(query 'dscope_calls_total{job!="dscope"}')" ] || fail "a refused job has the series"
targets=$(in_ns curl -sf "$api/targets")
echo "$targets" | grep -q '401 Unauthorized' || fail "no 401 in the wrong password's lastError: $targets"
kill -INT $dscope; wait $dscope || fail "dscope: $(cat $tmp/d.err)"
grep -Eq "^ +loop +$n\$" "$tmp/d.out" || fail "END: $(cat $tmp/d.out)"
echo "Prometheus over TLS with basic auth: dscope_calls_total = $sum (loop made $n calls)"

# not loopback without TLS and basic authentication: refused before
# anything binds (so an address of no interface here is refused the same)
printf 'tls_server_config:\n  cert_file: server.crt\n  key_file: server.key\n' >"$tmp/tls-only.yml"
printf 'basic_auth_users:\n  alice: %s\n' "$alice" >"$tmp/auth-only.yml"
for a in 0.0.0.0:0 '[::]:0' 192.0.2.1:9100 "0.0.0.0:0 -x metrics_webconfig=$tmp/tls-only.yml" \
	 "0.0.0.0:0 -x metrics_webconfig=$tmp/auth-only.yml"; do
	out=$(in_ns $D -n 'BEGIN { exit(0); }' -x metrics=$a 2>&1); rc=$?
	[ $rc = 1 ] && echo "$out" | grep -q "refusing to serve metrics on .*, which is not a loopback address, without TLS and basic authentication" ||
		fail "metrics=$a: exit $rc: $out"
done
# loopback in other spellings is served as it is
for a in 127.0.0.2:0 '[::1]:0'; do
	out=$(in_ns $D -n 'BEGIN { exit(0); }' -x metrics=$a 2>&1) || fail "metrics=$a: $out"
done

# bad files: FILE:LINE and one sentence, exit 1
bad() {	# bad 'SENTENCE' TEXT...: the file made of the TEXT lines
	local want=$1; shift
	printf '%s\n' "$@" >"$tmp/bad.yml"
	out=$($D -q -n 'BEGIN { exit(0); }' -x metrics=0 -x metrics_webconfig="$tmp/bad.yml" 2>&1); rc=$?
	[ $rc = 1 ] && [ "$(echo "$out" | wc -l)" = 1 ] && echo "$out" | grep -qF "$want" ||
		fail "$(printf '%s|' "$@"): exit $rc: $out (want '$want')"
}
bad 'bad.yml:2: a tab in the indentation' 'tls_server_config:' '	cert_file: x'
bad "bad.yml:1: unknown key 'tls_config' in the file (it takes tls_server_config, http_server_config, basic_auth_users)" 'tls_config:'
bad "bad.yml:3: 'alice' is given twice (first on line 2)" 'basic_auth_users:' "  alice: $alice" "  alice: $alice"
bad 'bad.yml:2: client_auth_type RequireAndVerifyClientCert: dscope neither asks for nor verifies client certificates' \
	'tls_server_config:' '  client_auth_type: RequireAndVerifyClientCert'
bad 'bad.yml:2: cipher_suites: dscope'"'"'s TLS is GnuTLS' 'tls_server_config:' '  cipher_suites:' '    - TLS_AES_128_GCM_SHA256'
bad "bad.yml:2: the password of 'alice' is not a bcrypt hash" 'basic_auth_users:' '  alice: s3cret'
bad 'bad.yml:1: a TLS certificate without a key' 'tls_server_config:' '  cert_file: server.crt'
bad "bad.yml:1: '{' starts YAML this reader does not take" 'basic_auth_users: {alice: x}'
bad 'bad.yml:3: unexpected indentation' 'tls_server_config:' '  cert_file: a' '    key_file: b'
bad 'bad.yml:2: min_version wants TLS10, TLS11, TLS12 or TLS13' 'tls_server_config:' '  min_version: SSL3'
bad 'bad.yml:1: rate_limit: dscope does not limit the rate of scrapes' 'rate_limit:' '  burst: 20'
bad "could not read cert_file '$tmp/nope.crt'" 'tls_server_config:' '  cert_file: nope.crt' '  key_file: server.key'
bad 'GnuTLS refused its certificate and key' 'tls_server_config:' '  cert_file: server.crt' '  key_file: other.key'
out=$($D -n 'BEGIN { exit(0); }' -x metrics_webconfig="$tmp/web.yml" 2>&1); rc=$?
[ $rc = 1 ] && echo "$out" | grep -q 'metrics_webconfig is set but metrics is not' || fail "webconfig alone: $out"
exit 0
