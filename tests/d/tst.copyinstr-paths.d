/*
 * Ground truth: build/targets/paths opens four known paths, then writes
 * the bytes of 192.168.1.23; copyinstr() and copyin() must see exactly
 * those, and the path subroutines must take them apart as DTrace does.
 * On one CPU: each CPU's records print in turn (as DTrace's buffers do),
 * so a target moved between CPUs prints its lines out of order.
 * @@args: -q -c "taskset -c 0 $B/targets/paths"
 */
syscall::openat:entry
/pid == $target && index(copyinstr(arg1), "/dscope-nonexistent/") == 0/
{
	printf("%s %d\n", copyinstr(arg1), strlen(copyinstr(arg1)));
	printf("  [%s] [%s] [%s] [%s]\n", basename(copyinstr(arg1)),
	    dirname(copyinstr(arg1)), cleanpath(copyinstr(arg1)),
	    copyinstr(arg1, 10));
}

syscall::write:entry
/pid == $target && arg2 == 4/
{
	printf("%s\n", inet_ntoa(copyin(arg1, 4)));
}
