/*
 * ufunc(), umod(), usym(), uaddr(), ucaller and ustackdepth as keys and
 * traced, against build/targets/mallocs (main -> alloc_small -> malloc 300
 * times, main -> alloc_big -> malloc 7 times): at malloc's entry ucaller
 * is in alloc_small or alloc_big, and the user stack is malloc, alloc_*,
 * main, then libc's start-up and _start (six frames, as ustack() shows
 * them, walked by .eh_frame).  The kernel's: at a syscall entry, caller is in
 * vmlinux and the stack has frames.
 * @@args: -q -c "$B/targets/mallocs"
 * @@needs: $B/dscope -vV | grep -Eq '^  (bpf_loop|global_func)  *yes' || { echo "ustack() unwinds by .eh_frame with bpf_loop or global functions, which this kernel lacks (dscope -vV): frame pointers only" >&2; false; }
 */
pid$target::malloc:entry
{
	@[ufunc(ucaller), umod(ucaller), ustackdepth] = count();
}

pid$target::alloc_big:entry
/!traced++/
{
	trace(usym(ucaller));
	printf(" ");
	trace(uaddr(ucaller));
	printf("\n");
}

syscall::exit_group:entry
/pid == $target/
{
	@kernel[mod(caller), stackdepth > 0] = count();
}
