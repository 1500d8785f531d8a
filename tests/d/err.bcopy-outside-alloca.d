/* bcopy() writes only into alloca() memory: elsewhere is a fault */
BEGIN { p = (char *)alloca(8); bcopy(p, (void *)&curthread->pid, 4); exit(0); }
ERROR { exit(1); }
