/*
 * chill(ns) spins in the probe for at least ns: each of build/targets/
 * loop's 5 getppid() calls, chilled 20 ms at entry, takes at least 20 ms
 * between its entry and return probes.  A lower bound only: a busy
 * machine can make the calls longer, never shorter.  chill is
 * destructive, hence -w.
 * @@args: -w -q -c "$B/targets/loop 5"
 * @@needs: $B/dscope -vV | grep -q '^  bpf_loop  *yes' || { echo "chill() waits in bpf_loop, which this kernel lacks (dscope -vV)" >&2; false; }
 */
syscall::getppid:entry
/pid == $target/
{
	self->ts = timestamp;
	chill(20000000);
}

syscall::getppid:return
/self->ts/
{
	@calls = count();
	@chilled = min(timestamp - self->ts >= 20000000);
	self->ts = 0;
}

END
{
	printa("calls %@d, each chilled 20 ms or more: %@d\n", @calls, @chilled);
}
