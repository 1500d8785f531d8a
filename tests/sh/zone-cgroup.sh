# cgroup and option zone, as a container runtime uses them: processes put
# in cgroup v2 groups of their own (mkdir, then their pid written to
# cgroup.procs) are counted under each group's id -- the inode number of
# its directory -- exactly; -x zone=ID admits that group and the groups
# below it only, a group made after tracing began included; a zone that
# matches nothing is one sentence and exit 1.
. tests/sh/lib.sh
U=$(awk '$0 ~ / - cgroup2 / { print $5; exit }' /proc/self/mountinfo)
[ -n "$U" ] || { echo "SKIP: no cgroup v2 hierarchy is mounted"; exit 77; }
P=$U/dscope_zt_$$
mkdir "$P" "$P/a" "$P/b" || { echo "SKIP: cannot make cgroup v2 groups in $U"; exit 77; }
cleanup() { for g in "$P"/*/ "$P"; do rmdir "$g" 2>/dev/null; done; rm -f "$T"; }
trap cleanup EXIT
GA=$(stat -c %i "$P/a")
GB=$(stat -c %i "$P/b")
LOOP=$PWD/$B/targets/loop
T=$(mktemp)
# run_in GROUP N: the loop target, N getppid() calls, in GROUP
cat > "$T" <<EOF
run_in() { sh -c 'echo \$\$ > "\$1/cgroup.procs" && exec "\$2" "\$3"' sh "\$1" "$LOOP" "\$2"; }
run_in "$P/a" 1111
run_in "$P/b" 2222
if [ -n "\$LATE" ]; then
	mkdir "$P/late"
	id=\$(stat -c %i "$P/late")
	key=\$(printf '%016x' "\$id" | sed 's/\(..\)/\1\n/g' | tac | tr '\n' ' ')
	# wait until dscope has admitted the new group (option zone looks for
	# new groups every 200 ms): its id is a key of the dscope_zones map
	until for m in \$(bpftool map show | awk -F'[: ]' '/name dscope_zones/ { print \$1 }'); do
		bpftool map lookup id \$m key hex \$key >/dev/null 2>&1 && break
	done; do sleep 0.05; done
	echo "late \$id" > "$T.late"
	run_in "$P/late" 3333
fi
EOF
prog='syscall::getppid:entry { @[cgroup] = count(); } END { printa("%d %@d\n", @); }'

out=$($D -q -n "$prog" -c "sh $T" 2>&1) || fail "exit $?: $out"
echo "$out" | grep -qx "$GA 1111" || fail "group a ($GA) did not count 1111: $out"
echo "$out" | grep -qx "$GB 2222" || fail "group b ($GB) did not count 2222: $out"

out=$($D -q -n "$prog" -x zone=$GA -c "sh $T" 2>&1) || fail "exit $?: $out"
[ "$out" = "$GA 1111" ] || fail "-x zone=$GA gave more or less than group a's 1111: $out"

# the parent's id admits both groups and one made after tracing began
if command -v bpftool >/dev/null; then
	P_ID=$(stat -c %i "$P")
	out=$(LATE=1 $D -q -n "$prog" -x zone=$P_ID -c "sh $T" 2>&1) || fail "exit $?: $out"
	L=$(awk '{ print $2 }' "$T.late")
	rm -f "$T.late"
	[ "$(echo "$out" | sort)" = "$(printf '%s\n' "$L 3333" "$GA 1111" "$GB 2222" | sort)" ] ||
		fail "-x zone=$P_ID: not a, b and the late group exactly: $out"
fi

# nspid: the pid inside a new PID namespace is 1; pid stays the host's;
# curpsinfo->pr_zoneid is the cgroup id
if command -v unshare >/dev/null; then
	out=$($D -q -n 'syscall::getppid:entry /ppid == $target/ {
		printf("%d %d %d\n", nspid, pid, curpsinfo->pr_zoneid == cgroup); exit(0); }' \
		-c "unshare -pf $LOOP 3" 2>&1) || fail "exit $?: $out"
	set -- $out
	[ "$1" = 1 ] && [ "$2" != 1 ] && [ "$3" = 1 ] ||
		fail "nspid, pid, pr_zoneid == cgroup: want 1, the host's pid, 1: $out"
fi

out=$($D -q -n "$prog" -x zone='no-such-container*' -c true 2>&1)
rc=$?
[ $rc = 1 ] || fail "a zone matching nothing: exit $rc, not 1: $out"
[ "$(echo "$out" | grep -c .)" = 1 ] || fail "not one sentence: $out"
echo "$out" | grep -q 'failed to match zone "no-such-container\*"' || fail "$out"
exit 0
