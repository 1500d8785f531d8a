# The fallbacks for kernels before 5.15 (Debian 11's 5.10), forced here
# with the test aid DSCOPE_CAPS_DISABLE (kcaps.h): all that 5.10 lacks at
# once, and the tests of what each serves must give the same answers.
# - uprobe_multi, perf_link, attach_cookie: each pid and usdt probe gets
#   a copy of its program that knows it, set on its perf event by ioctl;
# - perf_noprealloc (6.1): the hash maps of kprobe, tracepoint, profile
#   and tick programs are allocated whole (prealloc-old.sh);
# - iter_num, bpf_loop: string loops are bounded loops in place
#   (tst.strtok's eleven calls in one program are too many for them);
# - atomic_fetch (5.12): speculations are refused naming it;
# - task_pt_regs (5.15): uregs[] are read at the top of the kernel stack;
# - bpf_loop and task_pt_regs: ustack() steps its frames in a global
#   function, from registers read at the top of the kernel stack, and
#   must give the stacks through libc's .eh_frame it gives with them
#   (find_vma stays: its fallback, the mm's red-black tree, exists only
#   before 6.1, and is tested in the 5.10 guest);
# - fentry_cookie (6.0): each fbt function's fentry or fexit program is a
#   copy that knows it and reads arguments and return value from its
#   context (fbt.sh, where the kernel has kprobes: the 6.1 guest).
# A timer probe nesting inside a syscall probe must still leave all
# 500,000 counts whole (tst.nested-scratch).
. tests/sh/lib.sh
missing=uprobe_multi,perf_link,attach_cookie,perf_noprealloc,iter_num,bpf_loop,atomic_fetch,task_pt_regs,fentry_cookie
export DSCOPE_CAPS_DISABLE=$missing
caps=$($D -vV)
for c in ${missing//,/ }; do
	echo "$caps" | grep -q "^  $c  *no " || fail "-vV does not report $c absent"
done
echo "$caps" | grep -q '^  uprobe_pmu  *yes' || { echo "no uprobe PMU"; exit 77; }
tests="tests/d/tst.nested-scratch.d tests/d/tst.getppid-count.d
       tests/d/tst.curcpu.d tests/d/tst.agg-newkeys-lanes.d tests/d/tst.tick-count.d
       tests/d/tst.uregs.d
       $(ls tests/d/tst.pid-*.d tests/d/tst.usdt-*.d)
       tests/d/tst.ustack-ehframe.d tests/d/tst.ustack-ehframe-nofp.d
       tests/d/tst.sched-oncpu-ustack.d tests/d/tst.ustack-malloc.d tests/d/tst.symbols.d
       $(grep -lE 'basename|dirname|index\(|cleanpath|progenyof|strstr|strchr' \
		tests/d/tst.*.d | grep -v tst.strtok)"
out=$(tests/run.sh $tests) || { echo "$out"; fail "a test failed with the fallbacks"; }
for t in usdt-semaphore grab-pid fbt; do
	out=$(bash tests/sh/$t.sh 2>&1)
	case $? in
	0) ;;
	77) echo "sh/$t skipped: $out" ;;	# what it needs, said
	*) echo "$out"; fail "sh/$t failed with the fallbacks" ;;
	esac
done
err=$($D -e -n 'BEGIN { self->s = speculation(); }' 2>&1) &&
	fail "speculation() compiled without compare-and-exchange"
echo "$err" | grep -q 'speculation() needs compare-and-exchange.*atomic_fetch' ||
	{ echo "$err"; fail "the refusal does not name the capability"; }
exit 0
