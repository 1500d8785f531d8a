/*
 * The seed question "why am I calling malloc?" (README), whole: at
 * malloc's entry (a pid probe in libc, which has no frame pointers)
 * ustack() must give every frame down to _start, libc's start-up frames
 * below main included -- by libc's .eh_frame, the one route to them.
 * build/targets/mallocs: main() calls alloc_small(), which mallocs 300
 * times, then alloc_big(), 7.  The stacks are aggregated in the kernel.
 * Before 5.17 (Debian 11's 5.10) the frames are stepped by a global
 * function and each mapping found in the mm's tree (cg_ustack.c): the
 * first firing's stack must already be whole, so both counts are exact.
 * @@args: -q -c "$B/targets/mallocs"
 * @@needs: $B/dscope -vV | grep -Eq '^  (bpf_loop|global_func)  *yes' || { echo "ustack() unwinds by .eh_frame with bpf_loop or global functions, which this kernel lacks (dscope -vV): frame pointers only" >&2; false; }
 */
pid$target::malloc:entry
{
	@[ustack()] = count();
}
