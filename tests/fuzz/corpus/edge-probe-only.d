syscall::read:entry
