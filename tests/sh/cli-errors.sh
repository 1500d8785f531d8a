# Bad input gets one sentence and the right exit status, as dtrace(1).
. tests/sh/lib.sh
check() {	# check WANT_STATUS PATTERN cmd...: one sentence (and "matched")
	want=$1 pat=$2; shift 2
	out=$("$@" 2>&1); rc=$?
	[ $rc = "$want" ] || fail "$*: exit $rc, want $want: $out"
	echo "$out" | grep -q -- "$pat" || fail "$*: no '$pat' in: $out"
	[ "$(echo "$out" | grep -vc 'matched')" -le 1 ] || fail "$*: more than one sentence: $out"
}
# usage errors print the usage text, as dtrace(1), and exit 2
$D >/dev/null 2>&1; [ $? = 2 ] || fail "no arguments: want exit 2"
$D -y >/dev/null 2>&1; [ $? = 2 ] || fail "bad option: want exit 2"
check 1 "failed to open /nonexistent.d" $D -s /nonexistent.d
check 1 "failed to execute /nonexistent" $D -n 'BEGIN { exit(0); }' -c /nonexistent
check 1 "failed to grab pid 999999999" $D -n 'BEGIN { exit(0); }' -p 999999999
check 1 'syntax error near ";"' $D -n 'BEGIN { x = ; }'
check 1 "does not match any probes" $D -n 'nosuch:::probe { }'
check 1 "Invalid option name" $D -x nosuchoption -n 'BEGIN { exit(0); }'
check 1 "failed to set -x quiet: Invalid value" $D -x quiet=bogus -n 'BEGIN { exit(0); }'
# setopt() at run time: a library fault of the enabling each, as
# dtrace(1)'s (tests/sh/setopt-errors.sh), and on it goes
out=$($D -q -n 'BEGIN { setopt("quiet", "um, no"); setopt("bufsize", "1m");
	setopt("Nixon"); printf("went on\n"); exit(0); }' 2>&1); rc=$?
p='dscope: error on enabled probe ID 1 (ID 1: dtrace:::BEGIN): couldn'"'"'t set option'
[ $rc = 0 ] && [ "$out" = "$p \"quiet\" to \"um, no\": Invalid value for specified option

$p \"bufsize\" to \"1m\": Operation illegal when tracing is active

$p \"Nixon\" to \"1\": Invalid option name

went on" ] || fail "setopt: exit $rc: $out"
exit 0
