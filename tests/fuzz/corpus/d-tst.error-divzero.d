/*
 * A division by zero at run time abandons that clause only: the next
 * clause still runs, and dtrace:::ERROR fires with DTrace's arguments
 * (arg1 the enabled probe ID, arg2 the action, arg4 the fault:
 * DTRACEFLT_DIVZERO is 4).
 */
#pragma D option quiet

BEGIN { x = 0; y = 5 / x; printf("not here\n"); }
BEGIN { printf("still here\n"); }
ERROR { printf("ERROR: epid %d action %d fault %d\n", arg1, arg2, arg4); }
BEGIN { exit(0); }
