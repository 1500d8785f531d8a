/*
 * Ground truth: build/targets/mallocs calls count_me(i, 1000 + i, "x")
 * 42 times.  Offset 0 (an offset probe, not the entry probe) is the
 * function's first instruction on every compiler: it fires 42 times,
 * named "0", with the arguments still in di and si (sum 42 * 1000 + 2 *
 * 861 = 43722).  The entry probe beside it still fires as entry.
 * @@args: -q -c "$B/targets/mallocs"
 */
pid$target:a.out:count_me:0,
pid$target:a.out:count_me:entry
{
	@calls[probemod, probefunc, probename] = count();
}

pid$target:a.out:count_me:0
{
	@args = sum(arg0 + arg1);
}

END
{
	printa("%s %s %s %@d\n", @calls);
	printa("args %@d\n", @args);
}
