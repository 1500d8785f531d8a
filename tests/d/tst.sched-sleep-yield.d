/*
 * sched:::sleep, preempt and remain-cpu against known behaviour:
 * build/targets/sleeper blocks exactly once in each of its ten
 * nanosleeps; build/targets/spawner's 1000 sched_yield calls each make
 * one scheduling decision, which keeps it on the CPU (remain-cpu) or
 * switches while it stays runnable (preempt), and never blocks.  An
 * interrupt may add a preemption inside the window, never remove a
 * decision, hence ">= 1000".
 * remain-cpu needs the sched_exit_tp tracepoint, which not every kernel
 * has: dscope then does not offer the probe, and says why.
 * @@needs: $B/dscope -l -n sched:::remain-cpu
 * @@args: -q -c "$B/targets/spawner"
 */
syscall::sched_yield:entry
/pid == $target/
{
	self->in = 1;
}

syscall::sched_yield:return
/self->in/
{
	self->in = 0;
}

sched:::remain-cpu, sched:::preempt
/self->in/
{
	decisions++;
}

sched:::sleep
/self->in/
{
	sleeps++;
}

END
{
	printf("decisions >= 1000: %s\n", decisions >= 1000 ? "yes" : "no");
	printf("sleeps in sched_yield: %d\n", sleeps);
}
