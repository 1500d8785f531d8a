# Without root (or CAP_BPF and CAP_PERFMON): one sentence saying what is
# needed, exit status 1, nothing loaded.
. tests/sh/lib.sh
command -v runuser >/dev/null || { echo "runuser not installed"; exit 77; }
bin=$(mktemp -d)/dscope
cp "$D" "$bin" && chmod 755 "$(dirname "$bin")" "$bin"
out=$(runuser -u nobody -- "$bin" -q -n 'BEGIN { exit(0); }' 2>&1); rc=$?
rm -rf "$(dirname "$bin")"
[ $rc = 1 ] || fail "exit $rc: $out"
[ "$(echo "$out" | wc -l)" = 1 ] || fail "more than one line: $out"
echo "$out" | grep -q "needs root, or the CAP_BPF and CAP_PERFMON" || fail "$out"
exit 0
