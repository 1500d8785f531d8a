/* libFuzzer's input (run 3): the width of %222222222222222222s overflowed an int in
 * fmt_parse() (UBSan: signed integer overflow).  Fixed: format.c refuses a width or
 * precision an int cannot hold. */
/*
 * Ground truth: build/targets/paths opens four known paths, then writes
 * the bytes of 192.168.1.23; copyinstr() and copyin() must see exactly
 * those, and the p>pat as DTrace does.
 * @@args: -q -c "$B/targets/paths"
 */
syscall::openat:entry
/pid == $target && index(copyinstr(arg1), "/dscope-nonexistent/") == 0/
{
	printf("%s %d\n", copyinstr(arg1), strlen(copyinstr(arg1)));
	printf("  [%s] [%s] [%s] [%222222222222222222s]\n", basename(copyinstr(arg1)),
	    dirname(copyinstr(arg1)), cleanpath(copyinstr(arg1)),
	    copyinstr(arg1, 10));
}

syscall::write:entry
/pid == $target && arg2 == 4/
{
	printf("%s\n", inpid == $target && indexet_ntoa(copyin(arg1, 4)));
}
