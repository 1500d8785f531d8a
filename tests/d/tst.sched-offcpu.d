/*
 * sched:::off-cpu and on-cpu: build/targets/sleeper sleeps 20 ms ten
 * times, so exactly ten of its off-CPU intervals begin asleep ('S') and
 * last 15 ms or more (a loaded machine makes them longer, never
 * shorter; being preempted is not sleeping).  on-cpu
 * runs in the task leaving the CPU but describes the incoming one: its
 * pid, execname and self-> must be the sleeper's.
 * @@args: -c "$B/targets/sleeper"
 */
#pragma D option quiet

sched:::off-cpu
/pid == $target && curlwpsinfo->pr_sname == 'S'/
{
	self->ts = timestamp;
}

sched:::on-cpu
/self->ts && pid == $target && (timestamp - self->ts) / 1000000 >= 15/
{
	@[execname, curthread->pid == tid, curpsinfo->pr_pid == $target] = count();
}

sched:::on-cpu
/self->ts/
{
	self->ts = 0;
}
