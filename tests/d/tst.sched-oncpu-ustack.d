/*
 * ustack() at sched:::on-cpu is the user stack of the thread coming back
 * onto the CPU, though the program runs in the one leaving it:
 * build/targets/sleeper comes back from each of its ten nanosleeps
 * through libc's clock_nanosleep and nanosleep into main.  A sleep may
 * leave the CPU more than once (a busy machine preempts it on its way in
 * or out), so only its first return onto the CPU counts.
 * @@args: -q -c "$B/targets/sleeper"
 * @@needs: $B/dscope -vV | grep -Eq '^  (bpf_loop|global_func)  *yes' || { echo "ustack() unwinds by .eh_frame with bpf_loop or global functions, which this kernel lacks (dscope -vV): frame pointers only" >&2; false; }
 */
syscall::clock_nanosleep:entry
/pid == $target/
{
	self->in = 1;
}

syscall::clock_nanosleep:return
/self->in/
{
	self->in = 0;
}

sched:::on-cpu
/self->in/
{
	@[ustack(3)] = count();
	self->in = 0;
}
