# Under the kernel's own lockdown (a guest booted with lockdown=integrity
# or lockdown=confidentiality: tests/vm/run --append), dscope runs the
# one-liners the mode allows, with their exact counts, and refuses the
# rest in one sentence naming lockdown; -vV names the mode.  Every check
# runs and says what it found before the test fails, so one guest boot
# shows the whole picture.  Skipped on a kernel not locked down
# (tests/sh/lockdown.sh pretends the modes there).
. tests/sh/lib.sh
mode=$($D -vV | sed -n 's/^Kernel lockdown: \([a-z]*\)$/\1/p')
case $mode in
integrity|confidentiality) ;;
*) echo "kernel lockdown is '${mode:-?}' here: booted with none"; exit 77 ;;
esac
bad=0
note() { echo "$mode: $*"; }
wrong() { echo "WRONG $mode: $*"; bad=$((bad + 1)); }

# runs NAME WANT SCRIPT [ARGS]: runs, and prints WANT
runs() {
	local name=$1 want=$2 out
	shift 2
	if out=$($D -q "$@" 2>&1) && [ "$out" = "$want" ]; then
		note "$name runs: $(echo $out)"
	else
		wrong "$name: '$out', want '$want'"
	fi
}
# refused NAME SCRIPT [ARGS]: exit 1, one line naming lockdown
refused() {
	local name=$1 err rc
	shift
	err=$($D -q "$@" 2>&1 >/dev/null); rc=$?
	if [ $rc = 1 ] && [ "$(echo "$err" | wc -l)" = 1 ] &&
	   echo "$err" | grep -q "lockdown"; then
		note "$name refused: $err"
	else
		wrong "$name: exit $rc: $(echo "$err" | head -3)"
	fi
}
# under confidentiality, runs as runs() or is refused as refused()
allowed() {
	local name=$1 want=$2 out
	shift 2
	if [ $mode = confidentiality ] && ! $D -q "$@" >/dev/null 2>&1; then
		refused "$name" "$@"
	else
		runs "$name" "$want" "$@"
	fi
}
count='END { printa("%@d\n", @); }'

runs "syscall count" 321 -n "syscall::getppid:entry /pid == \$target/ { @ = count(); } $count" \
	-c "$B/targets/loop 321"
runs "syscall return" 321 -n "syscall::getppid:return /pid == \$target/ { @ = count(); } $count" \
	-c "$B/targets/loop 321"
runs "copyinstr" 1 -n "syscall::openat:entry /pid == \$target &&
	copyinstr(arg1) == \"/etc/ld.so.cache\"/ { @ = count(); } $count" -c "$B/targets/loop 1"
runs "pid provider" 42 -n "pid\$target:a.out:count_me:entry { @ = count(); } $count" \
	-c "$B/targets/mallocs"
runs "usdt" "$(printf 'gated 0\n100')" -n "usdtprog\$target:::fire { @ = count(); } $count" \
	-c "$B/targets/usdtprog 100"
# ppid is the parent's tgid: kernel memory
allowed "proc" 1 -n "proc:::exec-success /ppid == \$target/ { @ = count(); } $count" \
	-c "$B/targets/execer -f /nonexistent/nothing $B/targets/loop 3"
runs "profile" 1 -n 'profile-97hz { n = 1; } tick-300ms { exit(0); } END { printf("%d\n", n); }'
runs "execname" loop -n 'syscall::getppid:entry /pid == $target/ { @[execname] = count(); }
	END { printa("%s\n", @); }' -c "$B/targets/loop 5"

refused "copyout" -w -n 'pid$target::fill_me:entry {
	this->p = (int *)alloca(4); copyout(this->p, arg0, 4); }' -c "$B/targets/fillme"
if [ $mode = confidentiality ]; then
	refused "a kernel pointer" -n 'BEGIN { trace(curthread->pid); exit(0); }'
	refused "on-cpu's pid" -n 'sched:::on-cpu { @[pid] = count(); } tick-1s { exit(0); }'
else
	runs "a kernel pointer" 1 -n 'BEGIN { trace(curthread->pid > 0); exit(0); }'
	runs "on-cpu's pid" 1 -n 'sched:::on-cpu /pid == $target/ { n = 1; }
		END { printf("%d\n", n); }' -c "$B/targets/sleeper"
fi
# fbt by fentry (a BPF trampoline) or a kprobe: confidentiality takes
# kprobes away (LOCKDOWN_KPROBES), not trampolines
if $D -vV | grep -q '^  kprobe  *yes'; then
	fbt='fbt::vfs_read:entry /pid == $target/ { n = 1; } END { printf("%d\n", n); }'
	read="dd if=/dev/zero of=/dev/null bs=1 count=5 status=none"
	if out=$($D -q -n "$fbt" -c "$read" 2>&1); then
		[ "$out" = 1 ] && note "fbt runs: 1" || wrong "fbt: '$out', want 1"
	else
		[ $mode = confidentiality ] || wrong "fbt under integrity: $out"
		refused "fbt" -n "$fbt" -c "$read"
	fi
fi
# the tracepoints, listed from tracefs (LOCKDOWN_TRACEFS under
# confidentiality): found, or refused naming lockdown
if out=$($D -q -n 'sdt:sched::sched_process_exit /pid == $target/ { @ = count(); }
	END { printa("%@d\n", @); }' -c "$B/targets/loop 3" 2>&1); then
	[ "$out" = 1 ] && note "sdt runs: 1" || wrong "sdt: '$out', want 1"
else
	refused "sdt" -n 'sdt:sched::sched_process_exit { exit(0); }'
fi
# the examples: each runs for a moment or is refused in one sentence;
# under integrity, every one runs
for f in examples/*.d; do
	err=$($D -q -s "$f" -n 'tick-1s { exit(0); }' -p $$ 2>&1 >/dev/null); rc=$?
	if [ $rc = 0 ]; then
		note "$f runs"
	elif echo "$err" | grep -q "which this kernel does not have"; then
		note "$f: not this kernel's: $err"
	elif [ $mode = confidentiality ] && [ $rc = 1 ] &&
	     [ "$(echo "$err" | wc -l)" = 1 ] && echo "$err" | grep -q lockdown; then
		note "$f refused: $err"
	else
		wrong "$f: exit $rc: $(echo "$err" | head -3)"
	fi
done
[ $bad = 0 ] || fail "$bad wrong under lockdown=$mode"
exit 0
