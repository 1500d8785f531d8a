/* stores through a pointer are for alloca() memory only: a fault */
BEGIN { p = (int *)&curthread->pid; *p = 1; exit(0); }
ERROR { exit(1); }
