# The probes derived.c lowers onto other events, against
# build/targets/counted, which does each thing a known number of times:
# each count is exact (or, for page faults, at least one a page).
. tests/sh/lib.sh
T=$B/targets/counted
run() {	# run SCRIPT ARGS...: the script's output against counted ARGS
	s=$1; shift
	$D -q -n "$s" -c "$T $*" 2>&1 || fail "exit $?: $s"
}
# sched:::surrender: each sched_yield()
got=$(run 'sched:::surrender /pid == $target/ { @ = count(); }
	END { printa("%@d", @); }' yield 1234)
[ "$got" = 1234 ] || fail "surrender: $got, want 1234"
# sched:::sleep: each nanosleep that blocks, as many as the kernel's
# count of the thread's voluntary switches says (one whose timer fires
# while the thread is preempted before it reaches schedule() never
# sleeps, so a loaded machine may see fewer than 50)
got=$(run 'syscall::clock_nanosleep:entry /pid == $target/ { self->in = 1; }
	sched:::sleep /self->in/ { @ = count(); self->in = 0; }
	END { printa("slept %@d\n", @); }' sleep 50)
slept=$(echo "$got" | sed -n 's/^slept //p')
blocked=$(echo "$got" | sed -n 's/^blocked //p')
[ -n "$blocked" ] && [ "$blocked" -gt 0 ] && [ "$slept" = "$blocked" ] ||
	fail "sleep: $got (want slept = blocked, out of 50)"
# vminfo:::as_fault: at least one fault for each page first touched
got=$(run 'vminfo:::as_fault /pid == $target/ { @ = sum(arg0); }
	END { printa("%@d", @); }' touch 500)
[ "$got" -ge 500 ] || fail "as_fault: $got, want >= 500"
# sysinfo:::sysread is each read system call, readch its bytes: as many
# as the syscall provider sees (the loader reads too), 333 of them 4096
reads='syscall::read:X, syscall::pread64:X, syscall::readv:X,
	syscall::preadv:X, syscall::preadv2:X'
got=$(run 'sysinfo:::sysread /pid == $target/ { @n["sysread"] = sum(arg0); }
	'"$(echo "$reads" | sed 's/X/entry/g')"' /pid == $target/ {
		@n["read"] = sum(1); }
	sysinfo:::readch /pid == $target/ { @b["readch"] = sum(arg0);
		@k[arg0] = count(); }
	'"$(echo "$reads" | sed 's/X/return/g')"' /pid == $target && arg1 >= 0/ {
		@b["returned"] = sum(arg1); }
	END { printa("%s %@d\n", @n); printa("%s %@d\n", @b);
		printa("%d %@d\n", @k); }' read 333 4096)
n=$(echo "$got" | awk '$1 == "sysread" { print $2 }')
[ -n "$n" ] && [ "$n" -ge 333 ] &&
	echo "$got" | grep -qx "read $n" &&
	b=$(echo "$got" | awk '$1 == "readch" { print $2 }') &&
	echo "$got" | grep -qx "returned $b" &&
	echo "$got" | grep -qx "4096 333" || fail "sysread/readch: $got"
# proc:::fault: a SIGSEGV at an unmapped address is FLTBOUNDS (6)
got=$(run 'proc:::fault /pid == $target/ { @[args[0], args[1]->si_signo] = count(); }
	END { printa("%d %d %@d", @); }' segv 77)
[ "$got" = "6 11 77" ] || fail "fault: $got"
# proc:::signal-clear: each SIGUSR1 (10) sigtimedwait() takes
got=$(run 'proc:::signal-clear /pid == $target/ { @[args[0]] = count(); }
	END { printa("%d %@d", @); }' sigwait 21)
[ "$got" = "10 21" ] || fail "signal-clear: $got"
# proc:::signal-discard: each SIGUSR2 (12) sent to a process ignoring it
got=$(run 'proc:::signal-discard /args[1]->pr_pid == $target/ {
	@[args[2], args[0]->pr_lwpid == args[1]->pr_pid] = count(); }
	END { printa("%d %d %@d", @); }' ignored 13)
[ "$got" = "12 1 13" ] || fail "signal-discard: $got"
# sysinfo:::syscall: every system call, as many as the syscall
# provider's entries, a read each of 300 among them
got=$(run 'sysinfo:::syscall /pid == $target/ { @s = count(); }
	syscall:::entry /pid == $target/ { @e = count(); }
	END { printa("%@d %@d", @s, @e); }' read 300 1)
set -- $got
[ "$1" = "$2" ] && [ "$1" -ge 300 ] || fail "syscall: $got, want as many as syscall:::entry, 300 or more"
# DTrace's vminfo probes no Linux event serves: each named says why
for p in execfree execpgin execpgout fspgin fspgout pgfrec pgrec rev softlock; do
	out=$($D -n "vminfo:::$p {}" 2>&1) && fail "vminfo:::$p compiled: $out"
	echo "$out" | grep -q "vminfo:::$p is not offered: Linux" || fail "$p: $out"
done
# a probe the kernel cannot serve says what it lacks
if ! $D -vV | grep -q '^  sched:::tick  *yes'; then
	out=$($D -n 'sched:::tick {}' 2>&1) && fail "sched:::tick ran: $out"
	echo "$out" | grep -q 'sched:::tick needs fbt on sched\(uler\)\{0,1\}_tick' ||
		fail "tick: $out"
fi
exit 0
