# Shared by the shell tests: where things are, and how to fail.
B=${B:-build}
D=$B/dscope
fail() { echo "FAIL: $*"; exit 1; }
# BPF programs the kernel holds, by name prefix (dscope names its own)
dscope_progs() { bpftool prog show 2>/dev/null | grep -c ' name dscope_' || true; }
# wait up to 30 s for the kernel to free dscope's programs: closing the
# last fd frees a program promptly, but not synchronously with our exit
no_progs_left() {
	for i in $(seq 300); do [ "$(dscope_progs)" = 0 ] && return 0; sleep 0.1; done
	return 1
}
# wait for the dscope of pid $1 to load its programs, as long as it runs
# (no deadline of our own: start-up under TCG on a loaded host takes what
# it takes; tests/run.sh bounds each test); false if it exited first
wait_loaded() {
	while [ "$(dscope_progs)" = 0 ]; do
		kill -0 "$1" 2>/dev/null || return 1
		sleep 0.1
	done
}
# the BPF objects of file $1 ("prog ID", "link ID", "map ID" lines) still
# in the kernel, as "kind id" words; waits up to 30 s for them to go: the
# kernel frees what a closed fd held promptly, not synchronously with the
# exit
objects_left() {
	local left
	for s in $(seq 300); do
		left=$(while read kind id; do
			bpftool $kind show id $id >/dev/null 2>&1 && echo "$kind $id"
		done <"$1")
		[ -z "$left" ] && break
		sleep 0.1
	done
	echo $left
}
# a block device of RAM at /dev/ram0 of at least $1 KiB (1024 unless
# given), for tests of block I/O in a guest whose disks are shares: the
# guest kernel's own brd module (from the package tests/vm/run unpacked),
# loaded when /dev/ram0 is missing, and loaded again, larger, when the
# one there is smaller and not in use; exits 77 (skip) where there is none
ramdisk() {
	local ko tmp kb=${1:-1024}
	if [ -b /dev/ram0 ]; then
		[ $(($(cat /sys/block/ram0/size) / 2)) -ge "$kb" ] && return 0
		rmmod brd 2>/dev/null || { echo "/dev/ram0 is too small and in use"; exit 77; }
	fi
	ko=$(find build/vm/*/pkg/lib/modules/"$(uname -r)" -name 'brd.ko*' 2>/dev/null | head -1)
	[ -n "$ko" ] || { echo "no /dev/ram0 and no brd module for $(uname -r)"; exit 77; }
	tmp=$(mktemp)
	case $ko in *.xz) xz -dc "$ko" >"$tmp" ;; *) cp "$ko" "$tmp" ;; esac
	insmod "$tmp" rd_nr=1 rd_size="$kb" || { rm -f "$tmp"; echo "brd would not load"; exit 77; }
	rm -f "$tmp"
	[ -b /dev/ram0 ] || { echo "brd loaded but no /dev/ram0"; exit 77; }
}
# skip (77) unless this kernel serves the probe $1 (dscope -vV says so);
# where it does not, naming it must fail saying it needs fbt on $2
served_or_refused() {
	local err
	$D -vV | grep -q "^  $1  *yes" && return 0
	err=$($D -n "$1 {}" 2>&1) && fail "$1 compiled without fbt"
	echo "$err" | grep -q "$1 needs fbt on $2" || fail "$err"
	echo "no fentry or kprobes here: $err"; exit 77
}
# the records dscope reported lost ("dscope: N drops on CPU k"), summed
# over the CPUs, from its stderr in file $1
reported_drops() {
	sed -n 's/^dscope: \([0-9]*\) drops\{0,1\} on CPU [0-9]*$/\1/p' "$1" |
		awk '{ s += $1 } END { print s + 0 }'
}
# Exact accounting of N records ($1), each printed as a line of file $2
# matching $4 whose first two words are unique (a pid and its count), and
# counted by count() in a line "count N": the lines printed and the drops
# reported in file $3 add up to N, none twice, and count() is N.  Says
# "N records: P printed, D dropped" in $accounted.
check_accounting() {
	local n=$1 out=$2 err=$3 re=$4 count lines drops twice
	count=$(sed -n 's/^count \([0-9]*\)$/\1/p' "$out")
	[ "$count" = "$n" ] || fail "count() is ${count:-missing}, want $n"
	lines=$(grep -c "$re" "$out")
	drops=$(reported_drops "$err")
	[ $((lines + drops)) = "$n" ] ||
		fail "$lines lines printed and $drops drops reported, want $n: $(head -3 "$err")"
	twice=$(grep "$re" "$out" | cut -d' ' -f1,2 | sort | uniq -d | head -3)
	[ -z "$twice" ] || fail "printed twice: $twice"
	accounted="$n records: $lines printed, $drops dropped"
}
# A replay's output ($2) must be the live run's ($1), to the byte.
same_as_live() {
	[ "$1" = "$2" ] || fail "replay differs from live:
--- live
$1
--- replay
$2"
}
# the number of events a -x record run said it recorded, from its stderr
# in file $1; fails the test when it said none
recorded_count() {
	local n
	n=$(sed -n 's/^dscope: recorded \([0-9]*\) events\{0,1\} to .*/\1/p' "$1")
	[ -n "$n" ] || fail "no count of recorded events: $(cat "$1")"
	echo "$n"
}
# A recording test reads its trace with babeltrace2, as a user's CTF
# tools would: without it the test is skipped, saying so
need_babeltrace2() {
	command -v babeltrace2 >/dev/null ||
		{ echo "babeltrace2 not installed (scripts/install-deps.sh)"; exit 77; }
}
