# CPU hot-plug (a cloud instance's vCPUs come and go): while dscope traces
# a known workload, cpu1 goes offline and comes back.  300000 getppid()
# calls from two processes at a time, 100000 before, 100000 while cpu1 is
# offline and 100000 after it is back, each printed with its process's
# count and its CPU, and counted: count() is 300000 exactly, lines
# printed and drops reported add up to 300000, none twice, every cpu
# valid; and profile-997, after cpu1 is back, fires on both CPUs.
# In a guest only (tests/vm/run boots two vCPUs): here, taking a CPU
# offline would take it from everything else the host runs.
. tests/sh/lib.sh
online=/sys/devices/system/cpu/cpu1/online
if [ -z "$DSCOPE_TEST_VM" ]; then
	echo "CPU hot-plug is tried in a guest only (tests/vm/run): offlining a CPU of this host would take it from everything else running on it"
	exit 77
fi
[ -w $online ] && [ "$(cat $online)" = 1 ] ||
	{ echo "no CPU hot-plug: $online is not a writable online CPU"; exit 77; }
out=$(mktemp) err=$(mktemp)
trap 'echo 1 >$online; rm -f "$out" "$err"' EXIT
n=300000
L=$B/targets/loop
# budget=off: a printf for each of 300000 calls is a flood, and the
# overhead budget stopped it (exit 1, no END) in the 5.10 guest run beside
# two others; what is tested here is the accounting across the hot-plug
# (tests/sh/budget.sh tests the budget, flood.sh does the same)
$D -q -x budget=off -n '
	syscall::getppid:entry /ppid == $target && execname == "loop"/ {
		printf("%d %d %d\n", pid, ++self->n, cpu);
		@ = count();
	}
	syscall::sched_yield:entry /ppid == $target && execname == "counted"/ { back = 1; }
	profile-997 /back/ { @cpus[cpu] = count(); }
	END { printa("count %@d\n", @); printa("cpu %d %@d\n", @cpus); }' \
	-c "sh -c '$L 50000 & $L 50000; wait
		echo 0 >$online
		$L 50000 & $L 50000; wait
		echo 1 >$online
		$B/targets/counted yield 1
		$L 50000 & $L 50000; wait
		sleep 1'" >"$out" 2>"$err" || fail "exit $?: $(head -3 "$err")"
[ "$(cat $online)" = 1 ] || fail "cpu1 is not back online"
check_accounting $n "$out" "$err" '^[0-9]* [0-9]* [0-9]*$'
bad=$(awk '/^[0-9]/ && $3 !~ /^[01]$/' "$out" | head -3)
[ -z "$bad" ] || fail "cpu out of range: $bad"
for c in 0 1; do
	grep -q "^cpu $c [1-9]" "$out" || fail "profile-997 did not fire on cpu$c after it came back: $(grep '^cpu ' "$out")"
done
echo "$accounted; $(grep '^cpu ' "$out" | tr '\n' ' ')"
exit 0
