/*
 * Stores through a pointer are for alloca() memory only: elsewhere the
 * store is not made and the clause ends with an invalid address fault in
 * the action that made it (DTrace: DTRACEFLT_BADADDR), and the ERROR
 * probe fires.  The .err file holds the fault; exit(0) is never reached.
 * @@stage: run
 */
BEGIN { p = (int *)&curthread->pid; *p = 1; exit(0); }
ERROR { exit(1); }
