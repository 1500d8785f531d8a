/*
 * A probe in interrupt context (profile-4999's timer) fires while a
 * syscall probe's clause is part way through on the same CPU.  Each
 * firing builds its clause-local variables and string temps in a
 * per-CPU scratch area; before each nesting level had its own area, the
 * timer's clause wrote over the syscall clause's (this->v read 0xdead,
 * this->s "yy"), in some 6,000 of 2,000,000 firings.  Every one of the
 * target's 500,000 getppid() calls must be counted, whole.  A storm
 * by design, so the overhead budget is off: in Debian 11's guest beside
 * another, its programs took 52.1% of the two CPUs' time, and the
 * default budget (50%) stopped it.
 * @@args: -c "$B/targets/loop 500000"
 */
#pragma D option quiet
#pragma D option budget=off

profile-4999
{
	this->v = 0xdead;
	this->w = 0xbeef;
	this->s = strjoin("xx", "yy");
}

syscall::getppid:entry
/pid == $target/
{
	this->v = 1;
	this->w = 2;
	this->s = strjoin(execname, "-a");
	this->s = strjoin(this->s, "-b");
	this->s = strjoin(this->s, "-c");
	this->s = strjoin(this->s, "-d");
	@[this->v == 1 && this->w == 2, this->s] = count();
}

END
{
	printa("%d %s %@d\n", @);
}
