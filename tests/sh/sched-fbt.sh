# sched:::enqueue, dequeue, tick and change-pri, which no tracepoint
# shows: served by fbt (the scheduling classes' enqueue_task_* and
# dequeue_task_*, scheduler_tick or sched_tick, set_user_nice) where the
# kernel attaches fentry or kprobes, against build/targets/counted.
. tests/sh/lib.sh
T=$B/targets/counted
$D -vV | grep -q '^  sched:::enqueue  *yes' ||
	{ echo "no fentry or kprobes here: $($D -n 'sched:::enqueue {}' 2>&1)"; exit 77; }
ncpu=$(getconf _NPROCESSORS_CONF)
# a thread that sleeps 50 times is put back on a run queue each time it
# wakes, and taken off it each time it sleeps, on a CPU that exists
out=$($D -q -n '
sched:::enqueue /args[1]->pr_pid == $target/ { @["enqueue"] = count(); }
sched:::dequeue /args[1]->pr_pid == $target/ { @["dequeue"] = count(); }
sched:::enqueue, sched:::dequeue
/args[1]->pr_pid == $target && (args[2]->cpu_id < 0 || args[2]->cpu_id >= '"$ncpu"')/
{ @["badcpu"] = count(); }
END { printa("%s %@d\n", @); }' -c "$T sleep 50" 2>&1) || fail "exit $?: $out"
enq=$(echo "$out" | awk '$1 == "enqueue" { print $2 }')
deq=$(echo "$out" | awk '$1 == "dequeue" { print $2 }')
[ -n "$enq" ] && [ "$enq" -ge 50 ] && [ -n "$deq" ] && [ "$deq" -ge 50 ] &&
	! echo "$out" | grep -q badcpu || fail "enqueue/dequeue: $out"
# 1.5 s of its own CPU time takes at least one tick each 10 ms
out=$($D -q -n 'sched:::tick /pid == $target/ { @ = count(); }
	END { printa("%@d", @); }' -c "$T spin 1500" 2>&1) || fail "exit $?: $out"
[ "$out" -ge 150 ] 2>/dev/null || fail "tick: $out, want >= 150"
# setpriority() to nice 1, 2, ..., 19, 1, 2: 21 changes, each to
# priority 120 + nice, seen on the thread itself
out=$($D -q -n 'sched:::change-pri /args[1]->pr_pid == $target/ {
	@n = count(); @lo = min(args[2]); @hi = max(args[2]);
	@self = sum(args[0]->pr_lwpid == tid); }
	END { printa("%@d %@d %@d %@d", @n, @lo, @hi, @self); }' \
	-c "$T nice 21" 2>&1) || fail "exit $?: $out"
[ "$out" = "21 121 139 21" ] || fail "change-pri: $out"
exit 0
