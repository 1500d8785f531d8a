/*
 * A pid module named as DTrace's libproc finds it: by its file's name
 * (libc.so.6), or by a prefix of it up to a '.' (libc.so, libc), which
 * names the same module and gives its probes their full name.
 * Ground truth: mallocs calls malloc(24) 300 times and malloc(70000) 7.
 * @@args: -c "$B/targets/mallocs"
 */
#pragma D option quiet

pid$target:libc:malloc:entry
/arg0 == 24 || arg0 == 70000/
{
	@["libc", probemod, arg0] = count();
}

pid$target:libc.so:malloc:entry
/arg0 == 24 || arg0 == 70000/
{
	@["libc.so", probemod, arg0] = count();
}

pid$target:libc.so.6:malloc:entry
/arg0 == 24 || arg0 == 70000/
{
	@["libc.so.6", probemod, arg0] = count();
}

END
{
	printa("%-10s %s %6d %@d\n", @);
}
