/*
 * bcopy() writes only into alloca() memory: a destination elsewhere is an
 * invalid address fault in the action that made the copy, and the ERROR
 * probe fires.  The .err file holds the fault; exit(0) is never reached.
 * @@stage: run
 */
BEGIN { p = (char *)alloca(8); bcopy(p, (void *)&curthread->pid, 4); exit(0); }
ERROR { exit(1); }
