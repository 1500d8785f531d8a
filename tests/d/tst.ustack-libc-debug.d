/*
 * Ground truth (DESIGN.md 3.9, 3.10): build/targets/napper, as in
 * tst.ustack-ehframe.d, but the whole stack: below main are libc's
 * start-up functions, which only libc's separate debug file names
 * (Debian's libc6-dbg, by build-id under /usr/lib/debug):
 * __libc_start_call_main is a static function, and __libc_start_main
 * has local aliases (__libc_start_main_impl) a stack must not show.
 * Skipped when that debug file is not installed.
 * @@needs: { $B/dscope -vV | grep -Eq '^  (bpf_loop|global_func)  *yes' || { echo "ustack() unwinds by .eh_frame with bpf_loop or global functions, which this kernel lacks (dscope -vV): frame pointers only" >&2; false; }; } && id=$(readelf -n /lib/x86_64-linux-gnu/libc.so.6 | sed -n 's/.*Build ID: //p'); test -f /usr/lib/debug/.build-id/$(echo $id | cut -c1-2)/$(echo $id | cut -c3-).debug
 * @@args: -q -c "$B/targets/napper 5"
 */
syscall::clock_nanosleep:entry
/pid == $target/
{
	@[ustack()] = count();
}
