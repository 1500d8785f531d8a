# Many consumers: 16 dscope sessions at once, four on each kind of probe,
# each against its own workload of known size, each exact.
#  - syscall: syscall::getppid:entry of `loop K`, K = 40001..40004
#  - pid: pid$target:libc.so.6:syscall:entry of `loop K`, 20001..20004
#  - profile: profile-997 in `loop 300000`, a printf and a count() per
#    sample: lines printed + drops reported = count(), every cpu valid
#  - usdt: usdtprog$target:::gated of a running `usdtprog -1` each (-p),
#    whose is-enabled branch needs the probe's semaphore: the first 200
#    firings seen carry 200 consecutive loop indices (none missed), the
#    semaphore is up while traced and back to zero once dscope is gone
# The -c workloads (`loop K -`) hold after their K calls until the test
# closes their standard input, so that all 16 are attached together; the
# test waits for that state rather than for a time.  Then all detach:
# every BPF program, link and map the sessions held (their ids, read
# from /proc/PID/fdinfo while they ran) is gone from the kernel.  By id,
# not by counting `bpftool prog show`: other tracers on the host come and
# go meanwhile.
. tests/sh/lib.sh
dir=$(mktemp -d)
sessions= upids=
trap 'kill $sessions $upids 2>/dev/null; wait; exec 3>&-; rm -rf "$dir"' EXIT
mkfifo "$dir/hold"
exec 3<>"$dir/hold"	# the workloads' stdin stays open while fd 3 does
ncpus=$(nproc)
start() {	# NAME DSCOPE-ARGS...: a session in the background
	local name=$1
	shift
	$D -q "$@" <"$dir/hold" >"$dir/$name.out" 2>"$dir/$name.err" 3>&- &
	sessions="$sessions $!"
	echo $! >"$dir/$name.pid"
}
count_end='END { printa("count %@d\n", @); }'
for i in 1 2 3 4; do
	start sys$i -n "syscall::getppid:entry /pid == \$target/ { @ = count(); } $count_end" \
		-c "$B/targets/loop $((40000 + i)) -"
	start pid$i -n "pid\$target:libc.so.6:syscall:entry { @ = count(); } $count_end" \
		-c "$B/targets/loop $((20000 + i)) -"
	start prof$i -n "profile-997 /pid == \$target/ {
			@ = count(); printf(\"cpu %d\\n\", cpu); } $count_end" \
		-c "$B/targets/loop 300000 -"
	$B/targets/usdtprog -1 >"$dir/u$i.prog" 3>&- &
	upids="$upids $!"
	echo $! >"$dir/u$i.upid"
done
# the n-th line of file $2, waiting for it as long as process $3 runs
line() {
	local l
	while :; do
		l=$(sed -n "$1p" "$2")
		[ -n "$l" ] && { echo "$l"; return 0; }
		kill -0 "$3" 2>/dev/null || return 1
		sleep 0.1
	done
}
for i in 1 2 3 4; do
	upid=$(cat "$dir/u$i.upid")
	line 1 "$dir/u$i.prog" $upid >/dev/null || fail "usdtprog $i did not start"
	start usdt$i -p $upid -n '
		usdtprog$target:::gated /n < 200/ {
			n++; @ = count(); @lo = min(arg0); @hi = max(arg0);
		}
		usdtprog$target:::gated /n == 200 && !said/ { said = 1; printf("held\n"); }
		END { printa("count %@d\n", @); printa("lo %@d\n", @lo); printa("hi %@d\n", @hi); }'
done

# all attached: each -c workload is blocked reading its stdin (syscall
# 0 in /proc/PID/syscall, after its calls), each usdt session has seen
# its 200 firings
for name in sys1 sys2 sys3 sys4 pid1 pid2 pid3 pid4 prof1 prof2 prof3 prof4; do
	dpid=$(cat "$dir/$name.pid")
	while :; do
		kill -0 $dpid 2>/dev/null || fail "$name exited early: $(head -3 "$dir/$name.err")"
		child=$(pgrep -P $dpid -x loop)
		[ -n "$child" ] && [ "$(cut -d' ' -f1 /proc/$child/syscall 2>/dev/null)" = 0 ] && break
		sleep 0.1
	done
done
for i in 1 2 3 4; do
	line 1 "$dir/usdt$i.out" $(cat "$dir/usdt$i.pid") >/dev/null ||
		fail "usdt$i exited early: $(head -3 "$dir/usdt$i.err")"
done
# what the sessions hold in the kernel
for p in $sessions; do
	cat /proc/$p/fdinfo/* 2>/dev/null
done | sed -n 's/^\(prog\|link\|map\)_id:[[:space:]]*\([0-9]*\)$/\1 \2/p' | sort -u >"$dir/ids"
for kind in prog link map; do
	grep -q "^$kind " "$dir/ids" || fail "no BPF $kind found in the sessions' fds"
done
for i in 1 2 3 4; do
	kill -USR1 $(cat "$dir/u$i.upid")
	l=$(line 2 "$dir/u$i.prog" $(cat "$dir/u$i.upid")) || fail "usdtprog $i died"
	set -- $l
	[ "$4" -ge 1 ] || fail "usdt$i: semaphore not raised while traced: $l"
done

exec 3>&-	# the -c workloads exit, and their sessions with them
for i in 1 2 3 4; do
	kill -INT $(cat "$dir/usdt$i.pid")
done
for name in sys1 sys2 sys3 sys4 pid1 pid2 pid3 pid4 prof1 prof2 prof3 prof4 \
	usdt1 usdt2 usdt3 usdt4; do
	wait $(cat "$dir/$name.pid") || fail "$name: exit $?: $(head -3 "$dir/$name.err")"
done
sessions=
got() {	# the value of "WHAT N" in session NAME's output
	sed -n "s/^$2 \\(-\\{0,1\\}[0-9]*\\)\$/\\1/p" "$dir/$1.out"
}
for i in 1 2 3 4; do
	[ "$(got sys$i count)" = $((40000 + i)) ] ||
		fail "sys$i counted '$(got sys$i count)', want $((40000 + i))"
	[ "$(got pid$i count)" = $((20000 + i)) ] ||
		fail "pid$i counted '$(got pid$i count)', want $((20000 + i))"
	n=$(got prof$i count)
	lines=$(grep -c '^cpu ' "$dir/prof$i.out")
	drops=$(reported_drops "$dir/prof$i.err")
	[ -n "$n" ] && [ $((lines + drops)) = "$n" ] ||
		fail "prof$i: count() ${n:-missing}, $lines lines and $drops drops"
	bad=$(awk -v n=$ncpus '/^cpu / && ($2 < 0 || $2 >= n)' "$dir/prof$i.out" | head -1)
	[ -z "$bad" ] || fail "prof$i: $bad of $ncpus CPUs"
	n=$(got usdt$i count) lo=$(got usdt$i lo) hi=$(got usdt$i hi)
	[ "$n" = 200 ] && [ $((hi - lo + 1)) = 200 ] ||
		fail "usdt$i: ${n:-no} firings seen, indices $lo..$hi"
	upid=$(cat "$dir/u$i.upid")
	kill -USR1 $upid
	l=$(line 3 "$dir/u$i.prog" $upid) || fail "usdtprog $i died"
	set -- $l
	[ "$4" = 0 ] || fail "usdt$i: semaphore still raised after dscope exited: $l"
done
left=$(objects_left "$dir/ids")
[ -z "$left" ] || fail "left in the kernel after all sessions exited: $left"
echo "16 sessions exact; $(wc -l <"$dir/ids") BPF objects released"
exit 0
