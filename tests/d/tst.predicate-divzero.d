/*
 * A predicate of pid, tid and constants runs before the firing takes its
 * scratch area -- unless it divides: a division by zero is a fault, and
 * reporting it takes the area.  Such a predicate was refused
 * ("predicate read the scratch area before its lookup").  Each of the
 * target's three getppid() calls faults in the predicate: action 0, as
 * DTrace numbers a predicate, fault DTRACEFLT_DIVZERO (4); the clause
 * never runs.
 * @@args: -c "$B/targets/loop 3"
 */
#pragma D option quiet

syscall::getppid:entry
/pid == $target && 1 / (tid - tid)/
{
	printf("not here\n");
}

ERROR
{
	@[arg2, arg4] = count();
}
