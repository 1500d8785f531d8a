#!/bin/bash
# bench/record.sh [RUNS]: recording what a build does, three ways.
#
# The workload is a build of dscope itself from a clean copy of this
# checkout (`make -j2 build/dscope` after removing build/: some 40 s of
# compilers, assemblers and the linker on two CPUs, thousands of processes
# and a few million system calls).  Each recorder runs it as its command
# and records, for the whole machine, every system call's entry and
# return, every context switch and every process created, exec'd and
# exited:
#   dscope    -x record=DIR, syscall:::entry/return, sched:::off-cpu,
#             proc:::create, exec-success, exit (CTF, tests/sh/record-*.sh)
#   trace-cmd record -e raw_syscalls -e sched_switch -e sched_process_*
#   perf record -a -e the same tracepoints
# each with its default buffers, as a user runs it; and the build alone.
# Per run, the tools alternate (none, dscope, trace-cmd, perf, then the
# next run rotated), and each line says:
#   wall     the build's own wall time (its /usr/bin/time)
#   cpu      the build's user+system CPU: the tracepoints' and programs'
#            work in the kernel is charged here, to the traced threads
#   rec cpu  the recorder's own CPU (the whole invocation's, less the build's)
#   events   events in the trace (dscope: as it says; trace-cmd and perf:
#            as their own readers count them)
#   lost     events the recorder says it lost
#   bytes    the trace's size on disk, and bytes per event
# Needs root, trace-cmd and perf (apt-get install trace-cmd linux-perf).
# RECORD_TARGET names other make targets for the build (in a guest, where
# everything is some fifty times slower, a few objects).  trace-cmd needs
# ftrace_enabled writable: this host's kernel refuses it, the Debian
# guests do not (tests/vm/run --kernel 6.1.0-57-amd64 -- bench/record.sh).
set -u
runs=${1:-2}
target=${RECORD_TARGET:-build/dscope}	# smaller in a guest: a few objects
here=$(cd "$(dirname "$0")/.." && pwd)
D=${DSCOPE:-$here/build/dscope}
for t in trace-cmd perf; do
	command -v $t >/dev/null || { echo "bench/record.sh: $t is missing: apt-get install trace-cmd linux-perf" >&2; exit 2; }
done
w=$(mktemp -d /var/tmp/dscope-record.XXXXXX)
trap 'rm -rf "$w"' EXIT
cp "$D" "$w/dscope"	# a rebuild of build/dscope changes nothing here
mkdir "$w/src"
git -C "$here" archive HEAD | tar -x -C "$w/src"
cat >"$w/build.sh" <<EOF
rm -rf $w/src/build $w/build.time
exec /usr/bin/time -f '%e %U %S' -o $w/build.time make -s -C $w/src -j2 $target >/dev/null 2>&1
EOF
probes='syscall:::entry, syscall:::return, sched:::off-cpu, proc:::create,
	proc:::exec-success, proc:::exit {}'
events="-e raw_syscalls:sys_enter -e raw_syscalls:sys_exit -e sched:sched_switch
	-e sched:sched_process_fork -e sched:sched_process_exec -e sched:sched_process_exit"
# perf records its own writes unless told not to, event by event (trace-cmd
# leaves its own threads out by default)
perf_events=$(printf '%s ' $events | sed 's/\(-e [^ ]*\)/\1 --exclude-perf/g')

# one TOOL: run the build under TOOL; prints the line of figures
one() {
	local tool=$1 out=$w/out.$1 wall u s tu ts ev lost bytes
	rm -rf "$out" "$w/log" "$w/build.time"
	case $tool in
	none)	/usr/bin/time -f '%e %U %S' -o "$w/tool.time" bash "$w/build.sh" >"$w/log" 2>&1 ;;
	dscope)	/usr/bin/time -f '%e %U %S' -o "$w/tool.time" \
			"$w/dscope" -q -x record="$out" -n "$probes" -c "bash $w/build.sh" >"$w/log" 2>&1 ;;
	trace-cmd) mkdir "$out"
		/usr/bin/time -f '%e %U %S' -o "$w/tool.time" \
			trace-cmd record -q -o "$out/trace.dat" $events bash "$w/build.sh" >"$w/log" 2>&1 ;;
	perf)	mkdir "$out"
		/usr/bin/time -f '%e %U %S' -o "$w/tool.time" \
			perf record -q -a -o "$out/perf.data" $perf_events -- bash "$w/build.sh" >"$w/log" 2>&1 ;;
	esac
	if [ ! -s "$w/build.time" ]; then	# trace-cmd where ftrace is locked
		echo "$tool: cannot record here: $(grep -v '^$' "$w/log" | head -2 | tr '\n' ' ')"
		return 0
	fi
	read wall u s <"$w/build.time"
	read _ tu ts < <(tail -1 "$w/tool.time")
	case $tool in
	none)	ev=0 lost=0 ;;
	dscope)	ev=$(sed -n 's/^dscope: recorded \([0-9]*\) events.*/\1/p' "$w/log")
		lost=$(sed -n 's/^dscope: \([0-9]*\) drops\{0,1\} on CPU.*/\1/p' "$w/log" |
			awk '{ s += $1 } END { print s + 0 }') ;;
	trace-cmd)
		ev=$(trace-cmd report -i "$out/trace.dat" 2>/dev/null | grep -c ': [a-z_]*: ')
		lost=$(trace-cmd report --stat -i "$out/trace.dat" 2>/dev/null |
			awk '/overrun:/ { s += $2 } END { print s + 0 }') ;;
	perf)	ev=$(perf script -i "$out/perf.data" 2>/dev/null | wc -l)
		lost=$(perf report --stats -i "$out/perf.data" 2>/dev/null |
			awk '/LOST_SAMPLES|LOST events/ { s += $NF } END { print s + 0 }')
		lost=$((lost + $(grep -o 'lost [0-9]* chunks' "$w/log" | awk '{ s += $2 } END { print s + 0 }'))) ;;
	esac
	bytes=$(du -sb "$out" 2>/dev/null | cut -f1)
	awk -v t=$tool -v wall=$wall -v u=$u -v s=$s -v tu=$tu -v ts=$ts -v ev=${ev:-0} \
	    -v lost=${lost:-0} -v b=${bytes:-0} 'BEGIN {
		rec = tu + ts - u - s; if (rec < 0) rec = 0
		printf "%-10s wall %6.1f s  cpu %6.1f s  rec cpu %5.1f s  events %9d  lost %8d  bytes %11d  %5.1f B/event\n",
		    t, wall, u + s, rec, ev, lost, b, ev ? b / ev : 0 }'
	rm -rf "$out"
}

tools=(none dscope trace-cmd perf)
echo "bench/record.sh: $(uname -r), $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg); $(trace-cmd --version 2>&1 | grep -m1 version); $(perf --version)"
for r in $(seq "$runs"); do
	for i in 0 1 2 3; do
		one "${tools[$(((i + r - 1) % 4))]}"
	done
done
