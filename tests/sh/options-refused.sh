# Options dscope does not carry out are refused, never silently taken:
# one sentence naming the option, exit 1, from -x, from #pragma D option
# and from the flags that stand for them (-a, -A, -L).  Accepted tuning
# options still take only the values DTrace takes.
. tests/sh/lib.sh

for o in grabanon amin knodefs unodefs core debug tree ctypes=/tmp/x \
	 dtypes=/tmp/x droptags libdir=/tmp syslibdir=/tmp; do
	out=$($D -e -x "$o" -n BEGIN 2>&1); rc=$?
	[ $rc = 1 ] || fail "-x $o: exit $rc"
	echo "$out" | grep -q "^dscope: failed to set -x ${o%%=*}: [a-z]" ||
		fail "-x $o: $out"
done
out=$($D -e -s /dev/stdin 2>&1 <<'D'
#pragma D option grabanon
BEGIN {}
D
) && fail "#pragma D option grabanon accepted"
echo "$out" | grep -q 'anonymous tracing is not supported' || fail "pragma: $out"
for f in -a -A "-L /tmp"; do
	out=$($D -e $f -n BEGIN 2>&1) && fail "$f accepted"
	echo "$out" | grep -q 'not supported\|built in' || fail "$f: $out"
done
# values DTrace would refuse
for o in bufresize=sometimes evaltime=never linktype=dof iregs=9 stdc=q cpu=x stackframes=-1; do
	out=$($D -e -x "$o" -n BEGIN 2>&1) && fail "-x $o accepted"
	echo "$out" | grep -q 'Invalid value' || fail "-x $o: $out"
done
for o in bufresize=manual evaltime=exec evaltime=main linktype=elf iregs=8 stdc=s dynvarrate=10hz lazyload; do
	$D -e -x "$o" -n BEGIN 2>/dev/null || fail "-x $o refused"
done
exit 0
