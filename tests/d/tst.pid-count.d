/*
 * Ground truth: build/targets/mallocs calls count_me(i, 1000 + i, "x")
 * 42 times, which returns 1001 + 2i.  The pid provider on the -c command
 * (a.out names its executable) sees every call and every return, with
 * the arguments in di/si and the return value as arg1.
 * @@args: -q -c "$B/targets/mallocs"
 */
pid$target:a.out:count_me:entry
{
	@calls[probemod, probefunc, probename] = count();
	@args = sum(arg0 + arg1);
}

pid$target:a.out:count_me:return
{
	@calls[probemod, probefunc, probename] = count();
	@rets = sum(arg1);
}

END
{
	printa("%s %s %s %@d\n", @calls);
	printa("args %@d\n", @args);
	printa("rets %@d\n", @rets);
}
