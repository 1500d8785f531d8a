BEGIN { n = 4; tracemem(&curthread->pid, n); exit(0); }
