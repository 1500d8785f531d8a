/*
 * Ground truth (DESIGN.md 3.8, 3.10): build/targets/mallocs calls
 * malloc(24) 300 times from alloc_small() and malloc(70000) 7 times from
 * alloc_big(), both called by main.  The stacks taken at malloc's entry
 * must hold the caller (whose return address is still at [sp]) and be
 * named after the process has exited.  The frames below main (libc's
 * start-up, without frame pointers or symbols) are left out by asking
 * for 3 frames.
 * @@args: -q -c "$B/targets/mallocs"
 */
pid$target::malloc:entry
{
	@[ustack(3)] = count();
}
