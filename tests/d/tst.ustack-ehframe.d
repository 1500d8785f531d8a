/*
 * Ground truth (DESIGN.md 3.9): build/targets/napper's main() calls
 * wait_for_io() 5 times, and each calls libc's nanosleep(), which makes
 * the clock_nanosleep system call.  libc has no frame pointers, so a
 * frame-pointer walk from the system call loses wait_for_io; the
 * .eh_frame walk must find all four frames, in the kernel (the stacks
 * are aggregated there).  Below main are libc's start-up frames, one of
 * them without a symbol (printed as an address that changes every run):
 * ustack(4) leaves them out.
 * @@args: -q -c "$B/targets/napper 5"
 * @@needs: $B/dscope -vV | grep -Eq '^  (bpf_loop|global_func)  *yes' || { echo "ustack() unwinds by .eh_frame with bpf_loop or global functions, which this kernel lacks (dscope -vV): frame pointers only" >&2; false; }
 */
syscall::clock_nanosleep:entry
/pid == $target/
{
	@[ustack(4)] = count();
}
