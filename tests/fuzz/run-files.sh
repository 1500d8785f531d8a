#!/bin/sh
# run-files.sh -- replay and run the file parsers' fuzz targets
# (tests/fuzz/README.md), one fuzzer process at a time, at nice 19
# (FUZZ_NICE=N sets another).
#
#   run-files.sh --replay DIR          every input of regress/NAME/ through
#                                      DIR/fuzz_NAME; fails if one fails
#   run-files.sh --seconds N DIR [NAME...]
#                                      each target (or those named) in turn
#                                      for N seconds, from DIR/corpus/NAME
#                                      (kept between runs) and
#                                      DIR/seeds/NAME; crashes go to
#                                      DIR/crashes/, logs to DIR/logs/
#   run-files.sh --record DIR          a table of every run DIR/logs/ holds:
#                                      seconds (the log's start, from its
#                                      name, to its last write), executions
#                                      and exec/s as libFuzzer printed them,
#                                      and what stopped it
#
# A target's inputs are at most its max_len below; 1 GiB of RSS or one
# allocation of 1 GiB is a finding (no input that size justifies it).
here=$(dirname "$0")
targets="elf ehframe usdt usdt_args debugfile perfmap maps x86insn webconfig"

max_len() {
	case $1 in
	elf|usdt|debugfile) echo 24576 ;;
	ehframe) echo 16384 ;;
	x86insn) echo 1024 ;;
	usdt_args) echo 512 ;;
	*) echo 4096 ;;
	esac
}

dict() {
	case $1 in
	elf|usdt|debugfile) echo "-dict=$here/elf.dict" ;;
	x86insn) ;;
	*) echo "-dict=$here/$1.dict" ;;
	esac
}

case $1 in
--replay)
	dir=$2
	rc=0
	for t in $targets; do
		set -- "$here"/regress/$t/*
		[ -e "$1" ] || continue
		"$dir/fuzz_$t" -rss_limit_mb=1024 -timeout=10 "$@" >"$dir/replay-$t.log" 2>&1 ||
			{ echo "FAIL fuzz_$t replay (see $dir/replay-$t.log)"; rc=1; }
	done
	exit $rc ;;
--seconds)
	secs=$2 dir=$3
	shift 3
	[ $# -gt 0 ] && targets=$*
	mkdir -p "$dir/crashes" "$dir/logs"
	for t in $targets; do
		mkdir -p "$dir/corpus/$t" "$dir/seeds/$t"
		log=$dir/logs/$t-$(date +%Y%m%d-%H%M%S).log
		nice -n "${FUZZ_NICE:-19}" "$dir/fuzz_$t" -max_total_time="$secs" -timeout=10 \
			-rss_limit_mb=1024 -max_len="$(max_len $t)" $(dict $t) \
			-artifact_prefix="$dir/crashes/$t-" -print_final_stats=1 \
			"$dir/corpus/$t" "$dir/seeds/$t" >"$log" 2>&1
		rc=$?
		echo "fuzz_$t: exit $rc, $(grep -E 'stat::number_of_executed_units' "$log" | tr -s ' ') $(grep -E 'stat::average_exec_per_sec' "$log" | tr -s ' ') ($log)"
	done ;;
--record)
	echo "| target | started | seconds | executions | exec/s | result |"
	echo "|---|---|---|---|---|---|"
	for log in "$2"/logs/*.log; do
		name=$(basename "$log" .log)
		t=${name%-*-*} stamp=${name#"$t"-}
		start=$(date -d "$(echo "$stamp" | sed 's/\(....\)\(..\)\(..\)-\(..\)\(..\)\(..\)/\1-\2-\3 \4:\5:\6/')" +%s)
		secs=$(( $(stat -c %Y "$log") - start ))
		execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
		rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log")
		result=$(grep -m1 -o 'SUMMARY: [A-Za-z]*Sanitizer: [a-z-]*\|ERROR: libFuzzer: [a-z-]*' "$log")
		echo "| $t | $(echo "$stamp" | sed 's/.*-\(..\)\(..\)../\1:\2/') | $secs | ${execs:-?} | ${rate:-?} | ${result:-none} |"
	done | tee "$2/record.tmp"
	awk -F' *\\| *' '{ s += $4; e += $5 } END {
		printf "| all | | %d (%.2f core-hours) | %d | | |\n", s, s / 3600, e }' \
		"$2/record.tmp"
	rm -f "$2/record.tmp" ;;
*)
	echo "usage: run-files.sh --replay DIR | --seconds N DIR [NAME...] | --record DIR" >&2
	exit 2 ;;
esac
