/*
 * copyinstr() keeps strsize characters, as every string does (d/types.c:
 * dtype_string_bound(), which says where DTrace differs), and a size of n
 * below strsize keeps n.  build/targets/paths opens
 * "/dscope-nonexistent/a" (21 characters, strsize here) and then longer
 * paths; a size of 20, 21 or 22 keeps 20, 21, 21 of them.
 * @@args: -q -c "taskset -c 0 $B/targets/paths"
 */
#pragma D option strsize=21

syscall::openat:entry
/pid == $target && index(copyinstr(arg1), "/dscope-nonexistent/") == 0/
{
	printf("[%s] %d [%s] [%s] [%s]\n", copyinstr(arg1),
	    strlen(copyinstr(arg1)), copyinstr(arg1, 20), copyinstr(arg1, 21),
	    copyinstr(arg1, 22));
	@[copyinstr(arg1)] = count();
}

END
{
	printa("[%s] %@d\n", @);
}
