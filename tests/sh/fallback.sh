# The fallbacks for kernels older than this one, forced here with the
# test aid DSCOPE_CAPS_DISABLE: pid and usdt probes on uprobe perf events
# (no uprobe_multi links), string loops as bpf_loop callbacks (no
# bpf_iter_num).  The tests of what they serve must give the same answers.
. tests/sh/lib.sh
if ! DSCOPE_CAPS_DISABLE= $D -vV | grep -q '^  uprobe_multi  *yes' &&
   ! DSCOPE_CAPS_DISABLE= $D -vV | grep -q '^  iter_num  *yes'; then
	echo "this kernel has neither: every test runs the fallbacks"; exit 77
fi
export DSCOPE_CAPS_DISABLE=uprobe_multi,iter_num
caps=$($D -vV)
for c in uprobe_multi iter_num; do
	echo "$caps" | grep -q "^  $c  *no .*(DSCOPE_CAPS_DISABLE)" ||
		fail "-vV does not report $c disabled"
done
echo "$caps" | grep -q '^  uprobe_pmu  *yes' || { echo "no uprobe PMU"; exit 77; }
tests=$(ls tests/d/tst.pid-*.d tests/d/tst.usdt-*.d tests/d/tst.ustack-*.d
	grep -lE 'basename|dirname|index\(|strtok|cleanpath|progenyof|strstr|strchr' \
		tests/d/tst.*.d)
out=$(tests/run.sh $tests) || { echo "$out"; fail "a test failed with the fallbacks"; }
for t in usdt-semaphore pid-offset grab-pid; do
	out=$(bash tests/sh/$t.sh 2>&1) || { echo "$out"; fail "sh/$t failed with the fallbacks"; }
done
exit 0
