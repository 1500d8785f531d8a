/*
 * evaltime=preinit (dt_opt_evaltime; dt_proc.c stops the -c command there
 * while the probes are enabled): initcalls calls getppid() once in a
 * constructor and twice in main().
 * @@args: -c "$B/targets/initcalls"
 */
#pragma D option evaltime=preinit
#pragma D option quiet

syscall::getppid:entry
/pid == $target/
{
	@calls = count();
}

syscall::openat:entry
/pid == $target && basename(copyinstr(arg1)) == "libc.so.6"/
{
	@libc = count();
}

END
{
	printa("getppid %@d\n", @calls);
	printa("libc opened %@d\n", @libc);
}
