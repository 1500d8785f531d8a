#!/bin/bash
# tests/corpus/run.sh [NAME...] -- run the corpus of real-world D scripts.
#
# Each NAME.d here is a script as people write them (#!/usr/sbin/dtrace -s,
# pragmas, banners, printa formats) and must run unchanged: nothing in it
# is for the test.  Its expectation sits beside it in NAME.expect, a bash
# fragment that sets
#	args	what follows "dscope -s NAME.d" ($B is the build folder,
#		$W a scratch folder of this test's own)
#	check	a function that returns 0 when the output is right; it reads
#		$OUT, $ERR and $RC and says why when it fails (the helpers
#		below); ground truth comes from the traced program, /proc, or
#		the script's own structure, never from a pasted run
#	known	optional: "area: why", a failure that is known and owned
#		elsewhere.  Such a script still runs: when it fails it is
#		reported as SKIP with the reason, when it passes as PASS with
#		a note that the mark can go.
#	needs	optional: a command that must succeed (a device, a feature)
#	wrap	optional: a command dscope runs under ("taskset -c 0": a
#		script whose output order is one thread's, which per-CPU
#		buffers keep only on one CPU)
# Prints one line per script that did not simply pass, and last
# "N passed, N failed, N skipped" for tests/run.sh to add up.
cd "$(dirname "$0")/../.."
B=${B:-build}
D=$B/dscope
export B
pass=0 fail=0 skip=0

# --- helpers for check(): each prints what was wrong and returns 1 ---
# has LINE: some output line is exactly LINE
has() { grep -qxF -- "$1" "$OUT" || { echo "no line '$1'"; return 1; }; }
# lacks TEXT: no output line contains TEXT
lacks() { ! grep -qF -- "$1" "$OUT" || { echo "unexpected '$1'"; return 1; }; }
# count_is N ERE: exactly N output lines match ERE
count_is() {
	local n
	n=$(grep -cE -- "$2" "$OUT")
	[ "$n" -eq "$1" ] || { echo "$n lines match '$2', want $1"; return 1; }
}
# field_of ERE K: field K of the one line matching ERE
field_of() { grep -E -- "$1" "$OUT" | head -1 | awk -v k="$2" '{ print $k }'; }
# eq WHAT GOT WANT
eq() { [ "$2" = "$3" ] || { echo "$1: got '$2', want '$3'"; return 1; }; }
# status N: dscope exited N
status() { eq "exit status" "$RC" "$1"; }
# first_line TEXT: the output starts with TEXT
first_line() { eq "first line" "$(head -1 "$OUT")" "$1"; }
# ordered: the lines given appear in this order (not necessarily adjacent)
ordered() {
	local want
	for want in "$@"; do has "$want" || return 1; done
	local prev=0 n
	for want in "$@"; do
		n=$(grep -nxF -- "$want" "$OUT" | head -1 | cut -d: -f1)
		[ "$n" -gt "$prev" ] || { echo "'$want' out of order"; return 1; }
		prev=$n
	done
}

run_one() {
	local d=$1 name exp why
	name=$(basename "$d" .d)
	exp=${d%.d}.expect
	[ -f "$exp" ] || { echo "FAIL corpus/$name (no $name.expect)"; fail=$((fail + 1)); return; }
	unset -f check; args= known= needs= wrap=
	W=$(mktemp -d /tmp/dscope-corpus.XXXXXX)
	OUT=$W/.out ERR=$W/.err
	. "$exp"
	if [ -n "$needs" ] && ! why=$(eval "$needs" 2>&1 >/dev/null); then
		echo "SKIP corpus/$name (needs: $needs${why:+: $why})"; skip=$((skip + 1))
		rm -rf "$W"; return
	fi
	eval "timeout 60 $wrap $D -s $d $args" >"$OUT" 2>"$ERR" </dev/null; RC=$?
	why=$(check 2>&1)
	if [ $? -eq 0 ]; then
		pass=$((pass + 1))
		[ -n "$known" ] && echo "NOTE corpus/$name passes: drop its known mark ($known)"
	elif [ -n "$known" ]; then
		echo "SKIP corpus/$name (known failure: $known)"; skip=$((skip + 1))
	else
		echo "FAIL corpus/$name (exit $RC): $why"
		sed 's/^/  out: /' "$OUT" | head -15; sed 's/^/  err: /' "$ERR" | head -8
		fail=$((fail + 1))
	fi
	rm -rf "$W"
}

if [ $# -gt 0 ]; then
	for n in "$@"; do run_one "tests/corpus/${n%.d}.d"; done
else
	for d in tests/corpus/*.d; do run_one "$d"; done
fi
echo "$pass passed, $fail failed, $skip skipped"
[ $fail -eq 0 ]
