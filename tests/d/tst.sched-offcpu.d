/*
 * sched:::off-cpu and on-cpu: build/targets/sleeper makes ten 20 ms
 * nanosleep calls, and each one goes off CPU asleep ('S') at least once
 * before it returns, so exactly ten calls see an asleep off-cpu followed
 * by the sleeper's on-cpu.  Counting calls, not intervals, keeps the
 * answer independent of timing: a busy machine may preempt the sleeper
 * inside the call and split one sleep in two, and it may stretch any
 * interval.  on-cpu runs in the task leaving the CPU but describes the
 * incoming one: its pid, tid, execname and self-> must be the sleeper's.
 * @@args: -c "$B/targets/sleeper"
 */
#pragma D option quiet

syscall::nanosleep:entry,
syscall::clock_nanosleep:entry
/pid == $target/
{
	self->in = 1;
}

sched:::off-cpu
/self->in && curlwpsinfo->pr_sname == 'S'/
{
	self->ts = timestamp;
}

sched:::on-cpu
/self->ts && pid == $target/
{
	self->woke = 1;
	self->same = curthread->pid == tid && curpsinfo->pr_pid == $target &&
	    execname == "sleeper";
	self->ts = 0;
}

syscall::nanosleep:return,
syscall::clock_nanosleep:return
/self->in/
{
	@[execname, self->woke, self->same] = count();
	self->in = 0;
	self->woke = 0;
	self->same = 0;
}
