/*
 * Every aggregating function over mallocs' calls (tests/targets/mallocs.c:
 * malloc(24) 300 times, malloc(70000) 7 times) and a printf, for
 * tests/sh/oformat-json.sh to compare the JSON with the text.
 */
pid$target::malloc:entry
{
	@n[arg0] = count();
	@s[arg0] = sum(arg0);
	@mn = min(arg0);
	@mx = max(arg0);
	@av = avg(arg0);
	@sd = stddev(arg0);
	@q = quantize(arg0);
	@lq = lquantize(arg0, 0, 100000, 10000);
	@llq = llquantize(arg0, 10, 0, 6, 20);
}

pid$target::count_me:entry
/arg0 == 41/
{
	printf("count_me(%d, %d)\n", arg0, arg1);
}
