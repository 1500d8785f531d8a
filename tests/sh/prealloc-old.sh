# Before 6.1 a kprobe, tracepoint or raw tracepoint program on a hash map
# allocated as it fills loads with a kernel warning that taints the
# kernel (5.10: "trace type BPF program uses run-time allocation"), so
# where the kernel lacks perf_noprealloc (rt/load.c: prealloc_for_perf)
# every hash map such a program names is allocated whole.  Simulated
# here by DSCOPE_CAPS_DISABLE=perf_noprealloc: a syscall clause's
# aggregation map is made without BPF_F_NO_PREALLOC (flags 0x0); with the
# capability, as it fills (0x1).  Its counts are exact either way.  The
# clause has 70 aggregations, so that those past 64 are inner maps of an
# outer map, which the program reaches through it: they follow the same
# rule (tst.many-maps warned on 5.10 before they did).
. tests/sh/lib.sh
no_progs_left || { echo "another dscope is running"; exit 77; }
warning='trace type BPF program uses run-time allocation'
dir=$(mktemp -d)
mkfifo "$dir/in"
trap 'kill $pid 2>/dev/null; rm -rf "$dir"' EXIT

# flags of the aggregation map agg_calls while the target waits on its
# standard input (a fifo, closed when the flags are read), and in
# others those of the 69 more, agg_$2N, that differ from them; then the
# count of the target's 5000 getppid() calls
run() {
	local more="" i
	for i in $(seq 69); do more="$more @$2$i[pid] = count();"; done
	env $1 $D -q -n 'syscall::getppid:entry /pid == $target/ { @calls[probefunc] = count(); '"$more"' }
		END { printa("calls %s %@d\n", @calls); }' \
		-c "$B/targets/loop 5000 -" <"$dir/in" >"$dir/out" 2>"$dir/err" &
	pid=$!
	exec 4>"$dir/in"	# the target reads it to its end
	until [ "$(bpftool map show | grep -c " name agg_\($2[0-9]*\|calls\) ")" = 70 ]; do
		kill -0 $pid 2>/dev/null || fail "$1: dscope ended before loading: $(head -2 "$dir/err")"
		sleep 0.1
	done
	# the newest: the last run's maps may not be freed yet
	flags=$(bpftool map show | sed -n 's/.* name agg_calls *flags \(0x[0-9a-f]*\).*/\1/p' | tail -1)
	others=$(bpftool map show | sed -n "s/.* name agg_$2[0-9]* *flags \(0x[0-9a-f]*\).*/\1/p" |
		 grep -cvx "$flags")
	exec 4>&-
	wait $pid
	pid=
	count=$(awk '$1 == "calls" && $2 == "getppid" { print $3 }' "$dir/out")
}

if ! $D -vV 2>&1 | grep -q '^  perf_noprealloc  *yes'; then
	# an old kernel itself (5.10): preallocated, and no warning in its log
	run DSCOPE_CAPS_DISABLE= old
	[ "$flags" = 0x0 ] || fail "agg_calls has flags '$flags', not 0x0 (preallocated)"
	[ "$others" = 0 ] || fail "$others inner maps not preallocated"
	[ "$count" = 5000 ] || fail "counted '$count' of 5000"
	! dmesg | grep -q "$warning" || fail "the kernel says: $warning"
	echo "agg_calls preallocated, 5000 counted, no warning in the kernel's log"
	exit 0
fi
run DSCOPE_CAPS_DISABLE=perf_noprealloc without
[ "$flags" = 0x0 ] || fail "without perf_noprealloc: agg_calls has flags '$flags', not 0x0 (preallocated)"
[ "$others" = 0 ] || fail "without perf_noprealloc: $others inner maps not preallocated"
[ "$count" = 5000 ] || fail "without perf_noprealloc: counted '$count' of 5000"
no_progs_left || fail "the first run's programs are still loaded"
run DSCOPE_CAPS_DISABLE= with
[ "$flags" = 0x1 ] || fail "with perf_noprealloc: agg_calls has flags '$flags', not 0x1 (BPF_F_NO_PREALLOC)"
[ "$others" = 0 ] || fail "with perf_noprealloc: $others inner maps allocated otherwise"
[ "$count" = 5000 ] || fail "with perf_noprealloc: counted '$count' of 5000"
echo "agg_calls preallocated without perf_noprealloc, allocated as it fills with it; 5000 both ways"
