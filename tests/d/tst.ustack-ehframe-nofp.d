/*
 * Ground truth (DESIGN.md 3.9): build/targets/napper-nofp is napper built
 * with -O2 -fomit-frame-pointer: neither libc nor the executable keeps a
 * frame pointer, so every frame is found through .eh_frame.  main()
 * calls wait_for_io() 7 times; each calls nanosleep() once, which makes
 * one clock_nanosleep system call.  At nanosleep's entry (a pid probe)
 * the table's first row (CFA = rsp + 8) finds the caller.  ustack(4) and
 * ustack(3) stop at main, as in tst.ustack-ehframe.d.
 * @@args: -q -c "$B/targets/napper-nofp 7"
 * @@needs: $B/dscope -vV | grep -Eq '^  (bpf_loop|global_func)  *yes' || { echo "ustack() unwinds by .eh_frame with bpf_loop or global functions, which this kernel lacks (dscope -vV): frame pointers only" >&2; false; }
 */
syscall::clock_nanosleep:entry
/pid == $target/
{
	@[ustack(4)] = count();
}

pid$target::nanosleep:entry
{
	@[ustack(3)] = count();
}
