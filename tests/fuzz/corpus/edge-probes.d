dtrace:::BEGIN, :::END {}
profile-997hz, profile:::tick-1sec /cpu == 0/ { @[cpu] = count(); }
tick-10ms { exit(0); }
syscall::*read*:entry, syscall::[rw]*:return {}
syscall:vmlinux:\*:entry /0/ {}
ERROR { trace(arg4); }
