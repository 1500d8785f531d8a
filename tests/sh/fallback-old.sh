# The fallbacks for kernels before 5.17 (Debian 11's 5.10), forced here
# with the test aid DSCOPE_CAPS_DISABLE (kcaps.h), each with tests of
# what it serves, which must give the same answers:
# - atomic_fetch (5.12): a firing takes its scratch nesting level by a
#   lock add and a load; a timer probe nesting inside a syscall probe
#   must still leave all 500,000 counts whole (tst.nested-scratch).
#   Speculations, which need compare-and-exchange, are refused naming it.
# - perf_noprealloc (6.1): the hash maps profile and tick programs use
#   are allocated whole.
# - iter_num and bpf_loop: string loops are bounded loops in place
#   (tst.strtok's eleven calls in one program are too many for them).
. tests/sh/lib.sh
export DSCOPE_CAPS_DISABLE=atomic_fetch,perf_noprealloc,iter_num,bpf_loop
caps=$($D -vV)
for c in atomic_fetch perf_noprealloc iter_num bpf_loop; do
	echo "$caps" | grep -q "^  $c  *no " || fail "-vV does not report $c absent"
done
tests="tests/d/tst.nested-scratch.d tests/d/tst.getppid-count.d
       tests/d/tst.curcpu.d tests/d/tst.agg-newkeys-lanes.d tests/d/tst.tick-count.d
       $(grep -lE 'basename|dirname|index\(|cleanpath|progenyof|strstr|strchr' \
		tests/d/tst.*.d | grep -v tst.strtok)"
out=$(tests/run.sh $tests) || { echo "$out"; fail "a test failed with the fallbacks"; }
err=$($D -e -n 'BEGIN { self->s = speculation(); }' 2>&1) &&
	fail "speculation() compiled without compare-and-exchange"
echo "$err" | grep -q 'speculation() needs compare-and-exchange.*atomic_fetch' ||
	{ echo "$err"; fail "the refusal does not name the capability"; }
exit 0
