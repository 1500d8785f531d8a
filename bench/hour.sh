#!/bin/bash
# An hour of tracing (issue 28): one dscope session under a steady mixed
# load for DURATION seconds (default 3600), sampling once a minute what it
# holds, to show that what it holds follows the processes alive, not the
# time it has run or the number of processes it has seen.
#
#   bench/hour.sh [DURATION] [PORT]      (as root, from the worktree)
#
# The D script: syscall counts by execname (the whole machine), a printf
# for each record of a workload of known size, @[ustack()] = count()
# printed and truncated every 10 s, and the first whole stack of each
# "drv" printed with ustack() while it lives (so each one's symbols are
# read), proc:::exec-success and proc:::exit, a quantize of nanosleep's
# latency, and -x metrics on loopback, scraped by curl once a second for
# the whole run.  The workload's clauses take only this script's own
# processes (progenyof): another test's "drv" on the machine is not ours.
#
# The load, each second: one "hourw" (calls dup() on fds that cannot
# exist, WORK times, each a record printed with its own number: the
# records generated are WORK times the runs, exactly), three short-lived
# processes (exec and exit), and every 10 s a "drv" that loads a copy of
# its own of a shared object of 6000 functions (as tests/sh/long-run.sh)
# and calls getppid() through it for 5 s: its unwind rows and the symbol
# cache of its names must be let go once it has gone.  The copy is
# deleted when its process ends (files gone).  It stays well under a
# third of one core on this machine (2 cores shared).
#
# Writes build/hour/samples.csv (one row a minute: seconds, processes
# started, VmRSS and VmHWM in kB, open fds, BPF progs and maps held,
# dscope's CPU seconds, scrapes served and failed) and prints a summary;
# exit 1 if the accounting is not exact or dscope died.
set -u
dur=${1:-3600}
port=${2:-9464}
B=${B:-build}
D=$B/dscope
out_dir=${HOUR_DIR:-$B/hour}
work=${WORK:-200}
rm -rf "$out_dir"
mkdir -p "$out_dir"
tmp=$(mktemp -d)
csv=$out_dir/samples.csv
dpid= spid= drvpid=
cleanup() {
	for p in $spid $drvpid $dpid; do kill "$p" 2>/dev/null; done
	wait 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
die() { echo "hour: $*" >&2; exit 1; }

cat >"$tmp/hourw.c" <<'EOF'
#include <stdlib.h>
#include <unistd.h>
/* hourw BASE N: dup() of fds BASE .. BASE+N-1, none of which exists */
int main(int argc, char **argv)
{
	int base = atoi(argv[1]), n = atoi(argv[2]), i;

	for (i = 0; i < n; i++)
		dup(base + i);
	return 0;
}
EOF
sh tests/targets/bigso.sh "$tmp" 2000000 &&
	cp "$B/targets/drv" "$tmp/drv" &&
	gcc -O0 -o "$tmp/hourw" "$tmp/hourw.c" || die "cannot build the workload"

cat >"$tmp/hour.d" <<'EOF'
#pragma D option quiet
syscall:::entry { @sys[execname] = count(); }
syscall::dup:entry /execname == "hourw" && progenyof($1) && (int)arg0 >= 1000000/
{
	printf("w %d %d\n", pid, (int)arg0);
	@gen = count();
}
syscall::getppid:entry /execname == "drv" && progenyof($1)/ { @st[ustack()] = count(); }
/* a whole stack: syscall, spin, big_entry, main, libc's two and _start */
syscall::getppid:entry /execname == "drv" && progenyof($1) && ustackdepth >= 7 && !seen[pid]/
{
	seen[pid] = 1;
	printf("whole %d\n", pid);
	ustack();
}
proc:::exec-success { @exec[execname] = count(); }
proc:::exit { @exits = count(); }
proc:::exit /seen[pid]/ { seen[pid] = 0; }
syscall::nanosleep:entry, syscall::clock_nanosleep:entry { self->ts = timestamp; }
syscall::nanosleep:return, syscall::clock_nanosleep:return /self->ts/
{
	@lat = quantize(timestamp - self->ts);
	self->ts = 0;
}
tick-10s { printa(@st); trunc(@st); }
END
{
	printa("count %@d\n", @gen);
	printa("exits %@d\n", @exits);
}
EOF
out=$out_dir/out err=$out_dir/err
$D -s "$tmp/hour.d" -x "metrics=127.0.0.1:$port" $$ >"$out" 2>"$err" &
dpid=$!
# quiet: dscope does not say "metrics at"; the port answers once it runs
url=http://127.0.0.1:$port/metrics
until curl -sf -o /dev/null "$url"; do
	kill -0 $dpid 2>/dev/null || die "dscope did not start: $(head -3 "$err")"
	sleep 0.2
done

# the scraper: one line per scrape, "ok" or "fail"
(
	while :; do
		if curl -sf --max-time 5 -o "$tmp/scrape" "$url" &&
			grep -q '^dscope_' "$tmp/scrape"; then
			echo ok
		else
			echo fail
		fi
		sleep 1
	done
) >"$out_dir/scrapes" 2>/dev/null &
spid=$!

# sample: one CSV row of what dscope holds now
sample() {
	local rss hwm fds progs maps cpu ok fl f
	rss=$(awk '/^VmRSS/ { print $2 }' /proc/$dpid/status)
	hwm=$(awk '/^VmHWM/ { print $2 }' /proc/$dpid/status)
	fds=$(ls /proc/$dpid/fd | wc -l)
	progs=0 maps=0
	for f in /proc/$dpid/fdinfo/*; do
		case $(cat "$f" 2>/dev/null) in
		*prog_type:*) progs=$((progs + 1)) ;;
		*map_type:*) maps=$((maps + 1)) ;;
		esac
	done
	# utime + stime, in clock ticks: fields 14 and 15 after the comm
	cpu=$(sed 's/.*) //' /proc/$dpid/stat | awk -v hz="$(getconf CLK_TCK)" '{ printf "%.2f", ($12 + $13) / hz }')
	ok=$(grep -c '^ok' "$out_dir/scrapes")
	fl=$(grep -c '^fail' "$out_dir/scrapes")
	echo "$SECONDS,$procs,$rss,$hwm,$fds,$progs,$maps,$cpu,$ok,$fl" >>"$csv"
}

echo "seconds,processes,vmrss_kb,vmhwm_kb,fds,bpf_progs,bpf_maps,cpu_s,scrapes_ok,scrapes_failed" >"$csv"
SECONDS=0
procs=0 runs=0 drvs=0 next_sample=0
sample
next_sample=60
while [ $SECONDS -lt "$dur" ]; do
	t=$SECONDS
	kill -0 $dpid 2>/dev/null || die "dscope died at ${t}s: $(tail -3 "$err")"
	"$tmp/hourw" $((1000000 + runs * work)) "$work" || die "hourw failed"
	runs=$((runs + 1))
	/bin/true; /bin/sh -c : ; cat /proc/loadavg >/dev/null
	procs=$((procs + 4))
	if [ $((t % 10)) = 0 ]; then
		if [ -n "$drvpid" ]; then
			kill $drvpid; wait $drvpid
			rm -f "$tmp/libbig_$drvs.so"
			drvpid=
		fi
		drvs=$((drvs + 1))
		cp "$tmp/big.so" "$tmp/libbig_$drvs.so"
		"$tmp/drv" "$tmp/libbig_$drvs.so" &
		drvpid=$!
		procs=$((procs + 1))
	elif [ $((t % 10)) -ge 5 ] && [ -n "$drvpid" ]; then
		kill $drvpid; wait $drvpid
		rm -f "$tmp/libbig_$drvs.so"
		drvpid=
	fi
	if [ $SECONDS -ge $next_sample ]; then
		sample
		next_sample=$((next_sample + 60))
	fi
	# the rest of the second
	while [ $SECONDS = "$t" ]; do sleep 0.1; done
done
if [ -n "$drvpid" ]; then kill $drvpid; wait $drvpid; drvpid=; fi
sample
kill $spid; wait $spid 2>/dev/null; spid=
kill -INT $dpid
wait $dpid; rc=$?
dpid=
[ $rc = 0 ] || die "dscope exit $rc: $(tail -3 "$err")"

# exact accounting of the known workload
gen=$((runs * work))
count=$(sed -n 's/^count \([0-9]*\)$/\1/p' "$out")
printed=$(grep -c '^w [0-9]* [0-9]*$' "$out")
drops=$(sed -n 's/^dscope: \([0-9]*\) drops\{0,1\} on CPU [0-9]*$/\1/p' "$err" |
	awk '{ s += $1 } END { print s + 0 }')
twice=$(grep '^w [0-9]* [0-9]*$' "$out" | cut -d' ' -f3 | sort | uniq -d | wc -l)
ok=$(grep -c '^ok' "$out_dir/scrapes")
fl=$(grep -c '^fail' "$out_dir/scrapes")
first=$(sed -n 2p "$csv") last=$(tail -1 "$csv")
col() { echo "$1" | cut -d, -f"$2"; }
# the first whole stack of each drv, named from its own copy
named=0
for i in $(seq $drvs); do
	grep -q "libbig_$i.so\`big_entry" "$out" && named=$((named + 1))
done
maxrss=$(tail -n +2 "$csv" | cut -d, -f3 | sort -n | tail -1)
echo "duration:     ${dur} s, $procs processes started ($drvs with a copy of a 6000-function library of their own)"
echo "records:      $gen generated, $printed printed, $drops dropped (count() says ${count:-missing}; printed twice: $twice)"
echo "drv stacks:   $named of $drvs named from their own copy"
echo "RSS:          $(col "$first" 3) kB at start, $(col "$last" 3) kB at end, $maxrss kB the most sampled, VmHWM $(col "$last" 4) kB"
echo "open fds:     $(col "$first" 5) at start, $(col "$last" 5) at end"
echo "BPF progs:    $(col "$first" 6) at start, $(col "$last" 6) at end; maps $(col "$first" 7) at start, $(col "$last" 7) at end"
echo "dscope CPU:   $(col "$last" 8) s"
echo "scrapes:      $ok served, $fl failed"
echo "samples:      $csv"
grep -v '^dscope: [0-9]* drops\{0,1\} on CPU' "$err" | grep -v 'metrics at' | head -5
[ "$count" = "$gen" ] && [ $((printed + drops)) = "$gen" ] && [ "$twice" = 0 ] ||
	die "accounting is not exact"
