# Libraries that serve one option cost nothing to a run without it:
# libmicrohttpd (and GnuTLS and the seven libraries it brings) are opened
# when -x metrics is first used, libcrypt when a web configuration has
# basic_auth_users.  Checked by what the dynamic loader initialises
# (LD_DEBUG=libs) and by what a running dscope maps, and by taking each
# library away (an empty file bound over it in a mount namespace of the
# test's own): a run without the option does not notice, a run with it
# says in one sentence which package to install.
. tests/sh/lib.sh
command -v unshare >/dev/null || fail "unshare missing: run scripts/install-deps.sh"
tmp=$(mktemp -d)
pids=""
cleanup() {
	for p in $pids; do kill "$p" 2>/dev/null; done
	wait 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
optional='libmicrohttpd|libgnutls|libp11-kit|libidn2|libunistring|libtasn1|libnettle|libhogweed|libgmp|libffi|libcrypt\.'

LD_DEBUG=libs $D -q -n 'BEGIN { exit(0); }' 2>"$tmp/ld" || fail "BEGIN: $(tail -3 $tmp/ld)"
grep -q 'calling init: .*libbpf' "$tmp/ld" || fail "LD_DEBUG=libs shows no libbpf: $(head $tmp/ld)"
! grep -E "calling init: .*($optional)" "$tmp/ld" ||
	fail "BEGIN { exit(0); } loads libraries only -x metrics needs"

# a run that lives: its maps, without and with -x metrics
maps_of() {	# maps_of NAME ARGS...: the .so files dscope maps once BEGIN ran
	local name=$1 i; shift
	$D -q "$@" -n 'BEGIN { printf("up\n"); }' >"$tmp/$name.out" 2>"$tmp/$name.err" &
	local p=$!; pids="$pids $p"
	for i in $(seq 600); do
		grep -q up "$tmp/$name.out" && break
		kill -0 $p 2>/dev/null || fail "$name: $(cat $tmp/$name.err)"
		sleep 0.1
	done
	grep -o '/[^ ]*\.so[^ ]*' /proc/$p/maps | sort -u >"$tmp/$name.maps"
	kill -INT $p; wait $p
}
maps_of plain -n 'syscall::getppid:entry { @ = count(); }'
! grep -E "$optional" "$tmp/plain.maps" || fail "a run without metrics maps the libraries above"
maps_of served -n 'syscall::getppid:entry { @ = count(); }' -x metrics=127.0.0.1:0
grep -q libmicrohttpd "$tmp/served.maps" && grep -q libgnutls "$tmp/served.maps" ||
	fail "-x metrics did not open libmicrohttpd: $(cat $tmp/served.maps)"
echo "without metrics: $(wc -l <$tmp/plain.maps) shared objects mapped; with: $(wc -l <$tmp/served.maps)"

# each library taken away: one sentence naming its package, exit 1; the
# runs that do not need it go on
: >"$tmp/empty"
hash=$(python3 -W ignore -c 'import crypt; print(crypt.crypt("x", crypt.mksalt(crypt.METHOD_BLOWFISH, rounds=16)))')
printf 'basic_auth_users:\n  a: %s\n' "$hash" >"$tmp/auth.yml"
without() {	# without SONAME ARGS...: dscope ARGS with SONAME an empty file
	unshare -m sh -c 'mount --bind "$1" "$2" && shift 2 && exec "$@"' sh \
		"$tmp/empty" "$(readlink -f /lib/x86_64-linux-gnu/$1)" $D -q "${@:2}"
}
out=$(without libmicrohttpd.so.12 -n 'BEGIN { exit(0); }' 2>&1) || fail "BEGIN without libmicrohttpd: $out"
out=$(without libmicrohttpd.so.12 -n 'BEGIN { exit(0); }' -x metrics=0 2>&1); rc=$?
[ $rc = 1 ] && [ "$(echo "$out" | wc -l)" = 1 ] &&
	echo "$out" | grep -q '^dscope: -x metrics needs libmicrohttpd.so.12, which could not be loaded (.*): install the libmicrohttpd12 package$' ||
	fail "metrics without libmicrohttpd: exit $rc: $out"
out=$(without libcrypt.so.1 -n 'BEGIN { exit(0); }' -x metrics=0 2>&1) || fail "metrics without libcrypt: $out"
out=$(without libcrypt.so.1 -n 'BEGIN { exit(0); }' -x metrics=0 -x metrics_webconfig="$tmp/auth.yml" 2>&1); rc=$?
[ $rc = 1 ] && [ "$(echo "$out" | wc -l)" = 1 ] &&
	echo "$out" | grep -q '^dscope: basic_auth_users needs libcrypt.so.1, which could not be loaded (.*): install the libcrypt1 package$' ||
	fail "basic_auth_users without libcrypt: exit $rc: $out"
exit 0
