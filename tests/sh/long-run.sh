# A long run, in short: what dscope holds follows the processes alive, not
# the time it has run.  LONG_RUN_PROCS (80) processes, one after another,
# each load their own copy of a shared object (a file of its own, as a
# build or a deployment makes) with 6000 functions and no frame pointers,
# and call getppid() through it until the test has seen their whole
# stack, while ustack() is aggregated (printed and truncated each second)
# and the first whole stack of each is printed with its names.
#  - unwind rows: a copy's rows take 18,000 of the default budget of
#    524,288 (-x ustackrows), so some 27 fit at once.  Unless the rows of
#    the copies no process maps any more are let go and reused, the 28th
#    never gets its rows, its stack stays cut short at the copy, and
#    dscope says at the end that files did not fit in the budget.
#  - symbol caches: each copy's 6000 names are read to name its stack
#    (some 700 KB); kept for every process gone, dscope's RSS would grow
#    by that much per process.  It may grow by 16 MB between the 20th
#    process and the last (a few processes gone are kept, and malloc's
#    arenas have their moods), where keeping all would add 40 MB.
# The copies stay on disk until the end: each keeps its own inode (a file
# deleted may lend its inode to the next copy, which dscope must tell
# apart, but then the rows would be the same).
# Each stack is waited for, not timed: the copy's table is built at the
# consumer's next tick (0.1 s) after the process's first stack asks for
# it; 30 s without is a copy that never gets its rows.
. tests/sh/lib.sh
n=${LONG_RUN_PROCS:-80}
dir=$(mktemp -d)
trap 'kill $dpid $p 2>/dev/null; wait; rm -rf "$dir"' EXIT
sh tests/targets/bigso.sh "$dir" 1000000 || fail "cannot build the workload"
cp "$B/targets/drv" "$dir/drv"
out=$dir/out err=$dir/err
# a stack is whole when it holds syscall, spin, big_entry, main and
# libc's and the executable's start: 7 frames; cut at the copy, 5
$D -q -x switchrate=20hz -n '
	syscall::getppid:entry /execname == "drv"/ { @[ustack()] = count(); }
	syscall::getppid:entry /execname == "drv" && ustackdepth >= 7 && !seen[pid]/ {
		seen[pid] = 1;
		printf("whole %d\n", pid);
		ustack();
	}
	proc:::exit /execname == "drv"/ { seen[pid] = 0; }
	tick-1s { printa(@); trunc(@); }' >"$out" 2>"$err" &
dpid=$!
wait_loaded $dpid || fail "dscope did not start: $(head -3 "$err")"
rss() { awk '/^VmRSS/ { print $2 }' /proc/$dpid/status; }
for i in $(seq $n); do
	cp "$dir/big.so" "$dir/libbig_$i.so"
	"$dir/drv" "$dir/libbig_$i.so" & p=$!
	for w in $(seq 600); do
		grep -q "^whole $p\$" "$out" && break
		kill -0 $dpid 2>/dev/null || fail "dscope died: $(head -3 "$err")"
		kill -0 $p 2>/dev/null || fail "process $i ($p) ended first"
		sleep 0.05
	done
	[ $w -lt 600 ] || fail "process $i: no whole stack in 30 s: its copy has no rows"
	kill $p
	wait $p
	[ $i = 20 ] && rss20=$(rss)
done
rss_end=$(rss)
kill -INT $dpid
wait $dpid || fail "dscope exit $?: $(head -3 "$err")"
grep -q "did not fit" "$err" && fail "$(cat "$err")"
# every process's whole stack, named from its own copy
for i in $(seq $n); do
	grep -q "libbig_$i.so\`big_entry" "$out" || fail "no whole stack named from libbig_$i.so"
done
[ $((rss_end - rss20)) -lt 16384 ] ||
	fail "RSS grew from $rss20 kB (20 processes) to $rss_end kB ($n processes)"
echo "$n processes, each its own copy: RSS $rss20 kB after 20, $rss_end kB after $n"
exit 0
