#!/bin/bash
# tests/run.sh -- run every dscope test and print "N passed, N failed".
#
# 1. build/unit-tests: lexer, parser, formatting, ... (no kernel).
# 2. tests/d/: D scripts run by build/dscope against the live kernel.
#    tst.NAME.d    must exit 0; its stdout must equal tst.NAME.out.
#    err.D_TAG.NAME.d must exit 1 with [D_TAG] in its stderr (-xerrtags);
#                  err.NAME.d (no tag) must exit 1, and if err.NAME.err
#                  exists, stderr must equal it.
#    "@@status: N" makes a tst.* test expect exit status N instead of 0.
#    A line "@@args: ..." in a script gives extra dscope arguments (after
#    the script; $B is the build folder).  "@@needs: CMD" skips the test,
#    saying why, when CMD fails (a kernel feature this machine lacks; the
#    last line CMD writes to stderr is shown).
#    "@@stage: enable" or "@@stage: run" in an err.* test says that its
#    error comes when tracing starts or from a probe that fires, not from
#    the compiler.  Without root, every other err.* test is run compiled
#    only (-e: nothing is loaded), the rest skip as a whole.
#    In an err.*.err file, addresses (0x...) are matched by {ptr}.
# 3. tests/asm/*.d: the BPF that -S prints for a few clauses, compiled
#    only, with the kernel's capabilities pinned; a change to code
#    generation that is meant: `tests/asm/run.sh --regen` (its head).
# 4. tests/sh/*.sh: the command line and the lifecycle as a user sees them
#    (signals, kill -9, -p, bad input); exit 0 passes, 77 skips (the
#    script prints why), anything else fails.  They run as root only.
# 5. tests/fuzz/regress/*.d: inputs that once crashed the compiler, each
#    compiled (-e) and required to exit 0 or 1: see below; and
#    tests/fuzz/regress/NAME/*, inputs that once crashed a file parser,
#    replayed through build/replay/fuzz_NAME under the sanitizers.
# 6. tests/corpus/*.d: real-world scripts run unchanged, each checked by
#    its NAME.expect (tests/corpus/run.sh); root only.
# Without root (make check as any user): 1, 3, 5 and the compile-only
# err.* tests of 2 run; everything else is skipped with one line saying so.
# Only what the test names is compared: no timing, no sorting.
# With arguments (tests/d and tests/sh files), only those tests run.
cd "$(dirname "$0")/.."
B=${B:-build}
export B
pass=0 fail=0 skip=0
# A shell test's bound: a hang fails it rather than stalling the suite.
# Emulated guests (tests/vm/run: TCG on a shared machine) run some ten
# times slower, and a test that takes 50 s alone here ran past 120 s in
# the cloud guest under load: there, three times the bound.
sh_limit=120
[ -n "$DSCOPE_TEST_VM" ] && sh_limit=360

# In a guest, each test's start is written to the kernel's log too, so
# that a console showing a kernel warning or a hung task also shows which
# test was running (tests/vm/run prints the console when a guest fails).
mark() {
	[ -n "$DSCOPE_TEST_VM" ] && [ -w /dev/kmsg ] &&
		echo "dscope-test: $1" >/dev/kmsg 2>/dev/null
	return 0
}

# A compile-only run (-e), for a user who cannot load BPF: an err.* test
# whose error is the compiler's.
compile_only() {
	case $(basename "$1") in
	err.*) ! grep -q '@@stage: *\(enable\|run\)' "$1" ;;
	*) false ;;
	esac
}

run_d() {
	local t=$1 name args needs want out err rc tag e=
	name=$(basename "$t" .d)
	if [ "$(id -u)" -ne 0 ]; then
		compile_only "$t" || { echo "SKIP d/$name (it loads BPF programs: root)"; skip=$((skip + 1)); return; }
		e=-e
	fi
	mark "d/$name"
	args=$(sed -n 's/.*@@args: *\(.*\)$/\1/p' "$t" | head -1)
	needs=$(sed -n 's/.*@@needs: *\(.*\)$/\1/p' "$t" | head -1)
	want=$(sed -n 's/.*@@status: *\([0-9]*\).*/\1/p' "$t" | head -1)
	# The command's last line of complaint, if any, says what is missing.
	if [ -n "$needs" ] && ! why=$(eval "$needs" 2>&1 >/dev/null); then
		why=$(echo "$why" | tail -1)
		echo "SKIP d/$name (needs: $needs${why:+: $why})"; skip=$((skip + 1)); return
	fi
	out=$(mktemp) err=$(mktemp)
	case $name in
	err.D_*)
		tag=${name#err.}; tag=${tag%%.*}
		eval "timeout 60 $B/dscope $e -xerrtags -s $t $args" >"$out" 2>"$err"; rc=$?
		if [ $rc -eq 1 ] && grep -q "\[$tag\]" "$err"; then
			pass=$((pass + 1))
		else
			echo "FAIL d/$name (exit $rc, want 1 and [$tag])"; cat "$err"; fail=$((fail + 1))
		fi ;;
	err.*)
		eval "timeout 60 $B/dscope $e -s $t $args" >"$out" 2>"$err"; rc=$?
		sed -i 's/0x[0-9a-f]\+/{ptr}/g' "$err"
		if [ $rc -eq 1 ] && { [ ! -f "${t%.d}.err" ] || diff -u "${t%.d}.err" "$err" >/dev/null; }; then
			pass=$((pass + 1))
		else
			echo "FAIL d/$name (exit $rc)"; [ -f "${t%.d}.err" ] && diff -u "${t%.d}.err" "$err"
			fail=$((fail + 1))
		fi ;;
	*)
		eval "timeout 60 $B/dscope -s $t $args" >"$out" 2>"$err"; rc=$?
		if [ $rc -eq "${want:-0}" ] && diff -u "${t%.d}.out" "$out" >/dev/null; then
			pass=$((pass + 1))
		else
			echo "FAIL d/$name (exit $rc)"; diff -u "${t%.d}.out" "$out" | head -40
			head -20 "$err"; fail=$((fail + 1))
		fi ;;
	esac
	rm -f "$out" "$err"
}

# tests/run.sh tests/d/A.d ...: those D tests only (tests/sh/fallback.sh).
run_sh() {
	local t=$1 out rc
	mark "sh/$(basename "$t")"
	out=$(timeout $sh_limit bash "$t" 2>&1); rc=$?
	case $rc in
	0) pass=$((pass + 1)) ;;
	77) echo "SKIP sh/$(basename "$t") ($out)"; skip=$((skip + 1)) ;;
	*) echo "FAIL sh/$(basename "$t") (exit $rc)"; echo "$out" | tail -20
	   fail=$((fail + 1)) ;;
	esac
}

# Adds a sub-suite's counts ("P F [S]" from its last line) to the totals,
# or fails it when it did not get so far.
tally() {
	local what=$1; shift
	if [ $# -ge 2 ]; then
		pass=$((pass + $1)); fail=$((fail + $2)); skip=$((skip + ${3:-0}))
	else
		echo "FAIL $what did not finish"; fail=$((fail + 1))
	fi
}

if [ $# -gt 0 ]; then
	for t in "$@"; do
		case $t in
		*.sh) run_sh "$t" ;;
		*) run_d "$t" ;;
		esac
	done
	echo "$pass passed, $fail failed, $skip skipped"
	[ $fail -eq 0 ]
	exit
fi

unit_out=$("$B/unit-tests" 2>&1)
echo "$unit_out" | grep -v '^PASS\|passed,'
tally unit-tests $(echo "$unit_out" |
	sed -n 's/^\([0-9]*\) passed, \([0-9]*\) failed, \([0-9]*\) skipped$/\1 \2 \3/p')

asm_out=$(tests/asm/run.sh 2>&1)
echo "$asm_out" | grep -v 'passed,.*failed'
tally tests/asm/run.sh $(echo "$asm_out" |
	sed -n 's/^\([0-9]*\) passed, \([0-9]*\) failed$/\1 \2/p')

# 5. tests/fuzz/regress/*.d: inputs the fuzzer once crashed the compiler
#    with (tests/fuzz/README.md).  Compiled only (-e, no kernel, no root):
#    each must compile (exit 0) or be refused with a message (exit 1),
#    within 10 seconds.  "@@args: ..." as in tests/d.
for t in $(ls tests/fuzz/regress/*.d 2>/dev/null); do
	args=$(sed -n 's/.*@@args: *\(.*\)$/\1/p' "$t" | head -1)
	out=$(eval "timeout 10 $B/dscope -e -s $t $args" 2>&1 >/dev/null); rc=$?
	case $rc in
	0|1) pass=$((pass + 1)) ;;
	*) echo "FAIL fuzz/$(basename "$t") (exit $rc)"; echo "$out" | tail -5
	   fail=$((fail + 1)) ;;
	esac
done

# ... and the file parsers' (tests/fuzz/README.md): each folder's inputs
# through its harness, built with the sanitizers; any report fails.
for d in tests/fuzz/regress/*/; do
	t=$(basename "$d")
	out=$(UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
	      timeout 60 "$B/replay/fuzz_$t" "$d"* 2>&1); rc=$?
	if [ $rc -eq 0 ]; then
		pass=$((pass + 1))
	else
		echo "FAIL fuzz/$t (exit $rc)"; echo "$out" | tail -8
		fail=$((fail + 1))
	fi
done

if [ "$(id -u)" -ne 0 ]; then
	n=0
	for t in $(ls tests/d/*.d 2>/dev/null); do
		if compile_only "$t"; then run_d "$t"; else n=$((n + 1)); fi
	done
	n=$((n + $(ls tests/sh/*.sh tests/corpus/*.d 2>/dev/null | wc -l)))
	echo "SKIP $n tests: they load BPF programs and need root"
	skip=$((skip + n))
else
	for t in $(ls tests/d/*.d 2>/dev/null); do
		run_d "$t"
	done
	for t in $(ls tests/sh/*.sh 2>/dev/null); do
		run_sh "$t"
	done
	corpus_out=$(tests/corpus/run.sh 2>&1)
	echo "$corpus_out" | grep -v 'passed,.*failed,'
	tally corpus $(echo "$corpus_out" |
		sed -n 's/^\([0-9]*\) passed, \([0-9]*\) failed, \([0-9]*\) skipped$/\1 \2 \3/p')
fi
echo "$pass passed, $fail failed, $skip skipped"
[ $fail -eq 0 ]
