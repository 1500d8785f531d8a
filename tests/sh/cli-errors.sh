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
exit 0
