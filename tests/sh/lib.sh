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
