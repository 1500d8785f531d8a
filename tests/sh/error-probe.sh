# dtrace:::ERROR as DTrace runs it (dtrace_probe, dtrace_probe_error):
# at the fault, so its output comes before that of the faulting firing's
# later clauses; and a fault in an ERROR clause is not reported through
# ERROR again (that would never end) but counted: "1 error in ERROR probe
# enabling", while the other ERROR clauses still run.
. tests/sh/lib.sh
out=$($D -q -c "$B/targets/loop 3" -n '
syscall::getppid:entry /pid == $target/ { printf("faulting\n"); x = *(int *)8; }
syscall::getppid:entry /pid == $target/ { printf("after\n"); }
ERROR { printf("error %d\n", arg4); }' 2>/dev/null) || fail "exit $?: $out"
want=$(printf 'error 1\nafter\nerror 1\nafter\nerror 1\nafter\n')
[ "$(echo "$out" | grep .)" = "$want" ] || fail "order: got '$out', want '$want'"

err=$(mktemp)
trap 'rm -f "$err"' EXIT
out=$(timeout 60 $D -q -n '
BEGIN { x = *(int *)8; }
ERROR { printf("first\n"); y = *(int *)16; }
ERROR { printf("second\n"); }
BEGIN { exit(0); }' 2>"$err") || fail "exit $?: $out $(cat "$err")"
[ "$(echo "$out" | grep .)" = "second" ] || fail "ERROR clauses: got '$out'"
want="dscope: error on enabled probe ID 1 (ID 1: dtrace:::BEGIN): invalid address (0x8) in action #1
dscope: 1 error in ERROR probe enabling"
[ "$(cat "$err")" = "$want" ] || fail "stderr: got '$(cat "$err")', want '$want'"
exit 0
