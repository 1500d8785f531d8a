/*
 * sysinfo:::pswitch and inv_swtch against the kernel's own counts: from
 * the first of build/targets/sleeper's ten 20 ms nanosleep calls to the
 * return of the last, the sleeper's switches that inv_swtch called
 * involuntary must be exactly those its task_struct counted in nivcsw,
 * and the others those in nvcsw (both are counted in __schedule before
 * sched_switch fires, only where a task really leaves the CPU).  How
 * many there are depends on the machine's load; that they agree does
 * not.  Each call sleeps, so at least ten were voluntary: where every
 * switch read as involuntary (sched_switch without prev_state, before
 * 5.18), they differed.
 * @@args: -c "$B/targets/sleeper"
 */
#pragma D option quiet

syscall::nanosleep:entry,
syscall::clock_nanosleep:entry
/pid == $target && !started/
{
	started = 1;
	nv0 = curthread->nvcsw;
	niv0 = curthread->nivcsw;
}

sysinfo:::pswitch
/pid == $target && started/
{
	sw++;
}

sysinfo:::inv_swtch
/pid == $target && started/
{
	inv++;
}

syscall::nanosleep:return,
syscall::clock_nanosleep:return
/pid == $target && started/
{
	calls++;
	vol = sw - inv;
	invol = inv;
	nv = curthread->nvcsw - nv0;
	niv = curthread->nivcsw - niv0;
}

END
{
	printf("%d calls\n", calls);
	printf("voluntary as nvcsw: %s\n", vol == nv ? "yes" : "no");
	printf("involuntary as nivcsw: %s\n", invol == niv ? "yes" : "no");
	printf("ten or more voluntary: %s\n", nv >= 10 ? "yes" : "no");
}
