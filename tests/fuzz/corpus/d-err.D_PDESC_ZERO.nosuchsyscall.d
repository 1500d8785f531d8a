/* A probe description that matches nothing is an error without -Z. */
syscall::nosuchsyscall:entry { trace(1); }
