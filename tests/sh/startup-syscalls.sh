#!/bin/bash
# Start-up does what the script needs and nothing more, counted in system
# calls rather than time (a loaded machine makes time meaningless, and a
# count does not drift): `BEGIN { exit(0); }` reads none of the kernel's
# BTF or symbols, tries no kernel capability it does not use, and fills
# no map it does not have.  On 2026-12-04 it made 390 bpf() calls (364
# of them filling a syscall table for a script with no syscall probe,
# 2 trial loads), read all 5 MB of /sys/kernel/btf/vmlinux in 1,357
# read() calls (for the D library's network types and a proc:::exec
# tracepoint check), and every one of them went unnoticed: this test is
# what notices.  A script that does use kernel types may load the BTF;
# that it does is checked too, so that the counting is seen to work.
. "$(dirname "$0")/lib.sh"

command -v strace >/dev/null ||
	{ echo "SKIP: strace is not installed (scripts/install-deps.sh installs it)"; exit 77; }

log=$(mktemp)
trap 'rm -f "$log"' EXIT

# trace SCRIPT: run it under strace; the log holds its bpf, read and
# open calls
trace() {
	strace -f -qq -e trace=bpf,read,open,openat -o "$log" "$D" -q -n "$1" >/dev/null ||
		fail "dscope -n '$1' failed"
}
calls() { grep -c "$1" "$log" || true; }
# every count is checked, so that a failing run shows each one that is off
bad=0
complain() { echo "FAIL: $*"; bad=1; }

# check SCRIPT WHAT PATTERN MAX: at most MAX calls matching PATTERN
check() {
	local n
	n=$(calls "$3")
	[ "$n" -le "$4" ] || complain "'$1' made $n $2 (at most $4)"
}

# Neither the kernel's types nor its symbols for a script that needs none.
no_kernel_files() {
	local f
	for f in /sys/kernel/btf/ /proc/kallsyms; do
		! grep -q "open.*\"$f" "$log" || complain "'$1' opened $f"
	done
}

# The floor: one program, the fixed maps, the perf rings.  28 bpf() calls
# today: the program (and libbpf's two probes of the kernel before its
# first load), eight maps, reading the drop counters; 40 leaves room for
# a map or two more, not for a table filled entry by entry.
s='BEGIN { exit(0); }'
trace "$s"
no_kernel_files "$s"
check "$s" 'bpf() calls' 'bpf(' 40
check "$s" 'program loads' 'BPF_PROG_LOAD' 3
check "$s" 'map updates' 'BPF_MAP_UPDATE_ELEM\|BPF_MAP_UPDATE_BATCH' 8
check "$s" 'read() calls' '^[0-9]* *read(' 100

# A syscall probe fills the syscall table for the syscalls it names, in
# one update, and needs no BTF either.  One load more than BEGIN's: the
# trial of perf_noprealloc, which decides whether the hash maps of a
# tracepoint's program may fill as used (rt/load.c: before 6.1 such a map
# taints the kernel with a warning).
s='syscall::getppid:entry { @ = count(); } BEGIN { exit(0); }'
trace "$s"
no_kernel_files "$s"
check "$s" 'program loads' 'BPF_PROG_LOAD' 5
check "$s" 'map updates' 'BPF_MAP_UPDATE_ELEM\|BPF_MAP_UPDATE_BATCH' 8

# execname and an aggregation: still nothing of the kernel's.
s='BEGIN { @[execname] = count(); exit(0); }'
trace "$s"
no_kernel_files "$s"

# Kernel types are loaded when a script uses them, and only then.
s='BEGIN { trace(curthread->pid); exit(0); }'
trace "$s"
grep -q 'open.*"/sys/kernel/btf/vmlinux"' "$log" ||
	complain "'$s' did not open /sys/kernel/btf/vmlinux: is strace seeing dscope's calls?"
check "$s" 'program loads' 'BPF_PROG_LOAD' 3

# A pid probe's start-up: the overhead budget measures a uprobe's trap on
# a function of dscope's own (a uprobe perf event of pid 0), and that
# event must not be closed there and then: a uprobe's release waits for
# the kernel's grace period, ~100 ms (on 2026-12-06 a pid one-liner took
# 0.24 s against 0.07 s with budget=off).  It goes with the probes, to
# the child that releases them in the background: the main process
# closes it only after that child is made.
fifo=$(mktemp -u) && mkfifo "$fifo"
"$B/targets/loop" 1 - <"$fifo" & lp=$!
exec 9>"$fifo"		# held open: loop waits for its end
s='pid$target::getppid:entry {} tick-1ms { exit(0); }'
strace -f -qq -e trace=perf_event_open,close,clone,fork,vfork,clone3 -o "$log" \
	"$D" -q -n "$s" -p $lp >/dev/null || complain "dscope -n '$s' -p $lp failed"
exec 9>&-
wait $lp
rm -f "$fifo"
main=$(head -1 "$log" | cut -d' ' -f1)
# a dynamic PMU's event (strace cannot name its type) on pid 0: the uprobe;
# other events of pid 0 (a trial of perf_event_paranoid) are software's
fd=$(grep "^$main  *perf_event_open({type=0x[0-9a-f]* /\* PERF_TYPE_???" "$log" |
	sed -n 's/.*}, 0, -1, -1, .*) = \([0-9]*\)$/\1/p' | tail -1)
if [ -z "$fd" ]; then
	echo "no uprobe of dscope's own: the budget measured nothing here (no uprobe PMU?)"
else
	awk -v m="$main" -v fd="$fd" '
		$1 == m && $2 ~ /^perf_event_open\(/ && $NF == fd { opened = 1 }
		opened && $1 == m && $2 ~ /^(clone|fork|vfork|clone3)\(/ { forked = 1 }
		opened && $1 == m && $2 == "close(" fd ")" { exit !forked }
	' "$log" || complain "'$s': the budget's uprobe (fd $fd) was closed at start-up, not with the probes"
fi
exit $bad
