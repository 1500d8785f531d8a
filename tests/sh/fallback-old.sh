# Kernels before 5.12 have only the plain lock add among BPF's atomics
# (kcaps.h: atomic_fetch): a firing takes its scratch nesting level by a
# lock add and a load instead of a fetch-and-add, and speculations, which
# need compare-and-exchange, are refused naming it.  Forced here with
# DSCOPE_CAPS_DISABLE: a timer probe nesting inside a syscall probe must
# still leave all 500,000 counts whole (tst.nested-scratch), and the
# count of a known number of calls be exact.
. tests/sh/lib.sh
export DSCOPE_CAPS_DISABLE=atomic_fetch
$D -vV | grep -q '^  atomic_fetch  *no .*' || fail "-vV does not report atomic_fetch absent"
out=$(tests/run.sh tests/d/tst.nested-scratch.d tests/d/tst.getppid-count.d) ||
	{ echo "$out"; fail "a test failed with the lock-add fallback"; }
err=$($D -e -n 'BEGIN { self->s = speculation(); }' 2>&1) &&
	fail "speculation() compiled without compare-and-exchange"
echo "$err" | grep -q 'speculation() needs compare-and-exchange.*atomic_fetch' ||
	{ echo "$err"; fail "the refusal does not name the capability"; }
exit 0
