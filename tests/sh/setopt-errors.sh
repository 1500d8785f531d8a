# A setopt() that fails is reported as DTrace reports a library fault
# of the enabling (dt_setopt, dt_handle_liberr): the enabled probe, then
# "couldn't set option ...", whose newline dtrace(1) follows with its
# own; a toggle (no value) was given "1".  Tracing goes on.
. tests/sh/lib.sh
err=$(mktemp)
trap 'rm -f "$err"' EXIT
out=$($D -q -n '
BEGIN { setopt("Nixon"); setopt("quiet", "um, no"); }
BEGIN { setopt("bufsize", "1m"); printf("went on\n"); exit(0); }' \
	2>"$err") || fail "exit $?: $out $(cat "$err")"
[ "$out" = "went on" ] || fail "stdout: got '$out'"
want='dscope: error on enabled probe ID 1 (ID 1: dtrace:::BEGIN): couldn'"'"'t set option "Nixon" to "1": Invalid option name

dscope: error on enabled probe ID 1 (ID 1: dtrace:::BEGIN): couldn'"'"'t set option "quiet" to "um, no": Invalid value for specified option

dscope: error on enabled probe ID 2 (ID 1: dtrace:::BEGIN): couldn'"'"'t set option "bufsize" to "1m": Operation illegal when tracing is active
'
[ "$(cat "$err"; echo x)" = "$want
x" ] || fail "stderr: got '$(cat "$err")', want '$want'"
exit 0
