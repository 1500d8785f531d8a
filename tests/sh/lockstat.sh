# lockstat under a workload that contends kernel locks: eight shells
# renaming files in one directory (its i_rwsem, the dentry locks).
# dscope stops at the first sleeping wait it sees (adaptive-block or
# rw-block); each firing must carry a positive wait, no longer than the
# trace has run, come after a contention_begin of the same thread and
# lock (lockstat's own pairing, checked against sdt's: the programs on
# one tracepoint run in no known order, so b[] is never cleared), and its
# waiter's stack must name the lock's slow path.
. tests/sh/lib.sh
err=$($D -l -n lockstat:::rw-block 2>&1 >/dev/null) && err=$($D -l -n lockstat:::adaptive-block 2>&1 >/dev/null) || {
	echo "$err" | grep -q 'needs the lock:contention_[a-z]* tracepoint' || fail "$err"
	echo "SKIP: $err"; exit 77; }
dir=$(mktemp -d)
out=$dir/out
trap 'kill $(jobs -p) 2>/dev/null; wait 2>/dev/null; rm -rf "$dir"' EXIT
exec 2>/dev/null	# the renamers complain as they are killed
for i in 1 2 3 4 5 6 7 8; do
	(touch "$dir/a$i"; while :; do mv "$dir/a$i" "$dir/b$i"; mv "$dir/b$i" "$dir/a$i"; done) &
done
timeout 120 $D -q -n '
BEGIN { start = timestamp; }
sdt:lock::contention_begin { b[tid, arg0] = 1; }
lockstat:::adaptive-block, lockstat:::rw-block
{
	printf("%s %d %d %d\n", probename, arg1 > 0, arg1 <= timestamp - start,
	    b[tid, arg0]);
	stack(); exit(0);
}' >"$out" 2>&1 || fail "dscope: $(cat "$out")"
read -r name pos bounded paired <"$out"
case $name in adaptive-block|rw-block) ;; *) fail "no block seen: $(cat "$out")";; esac
[ "$pos" = 1 ] && [ "$bounded" = 1 ] || fail "$name's wait not in (0, trace time]: $(head -1 "$out")"
[ "$paired" = 1 ] || fail "$name without a contention_begin of its thread and lock"
grep -Eq 'vmlinux`(rwsem_down_(read|write)_slowpath|__mutex_lock|__rt_mutex|percpu_rwsem)' "$out" ||
	fail "the waiter's stack names no lock slow path: $(cat "$out")"
exit 0
