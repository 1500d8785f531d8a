/*
 * sched:::sleep fires when the thread blocks: build/targets/sleeper blocks
 * exactly once inside each of its ten nanosleeps.
 * @@args: -q -c "$B/targets/sleeper"
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

sched:::sleep
/self->in/
{
	@sleeps = count();
}

END
{
	printa("sleeps in nanosleep %@d\n", @sleeps);
}
