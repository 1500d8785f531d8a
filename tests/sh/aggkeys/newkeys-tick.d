/*
 * New keys of one aggregation, several in one firing of a probe that
 * runs with interrupts off (tick), for every aggregating function: in
 * one clause and across the clauses of the firing, three and four new
 * keys at once, and one key twice.  Each firing gave one aggregation one
 * new key and dropped the rest ("N aggregation drops"): the kernel's
 * per-CPU allocator for a map's new values refills only once the
 * firing is over.  DTrace shows every key.
 * (run by tests/sh/agg-newkeys-tick.sh, with -q)
 */
tick-10ms
/n < 3/
{
	n++;
	live = 1;
	@c[n] = count();
	@c[n + 10] = count();
	@c[n + 20] = count();
	@s[n] = sum(n);
	@s[n + 10] = sum(10);
	@same[1] = count();
	@same[1] = count();
}

tick-10ms
/live/
{
	@c[n + 30] = count();
	@s[n + 20] = sum(20);
	@a[n] = avg(n * 10);
	@a[n + 10] = avg(4);
	@mn[n] = min(n);
	@mn[n + 10] = min(-n);
	@mx[n] = max(n);
	@mx[n + 10] = max(-n);
	@sd[n] = stddev(n);
	@sd[n + 10] = stddev(2);
	@q[n] = quantize(n);
	@q[n + 10] = quantize(100);
	@l[n] = lquantize(n, 0, 10, 1);
	@l[n + 10] = lquantize(5, 0, 10, 1);
	@ll[n] = llquantize(n, 10, 0, 2, 10);
	@ll[n + 10] = llquantize(50, 10, 0, 2, 10);
	live = 0;
}

tick-10ms
/n == 3/
{
	exit(0);
}

END
{
	printa("count %d %@d\n", @c);
	printa("sum %d %@d\n", @s);
	printa("same %d %@d\n", @same);
	printa("avg %d %@d\n", @a);
	printa("min %d %@d\n", @mn);
	printa("max %d %@d\n", @mx);
	printa("stddev %d %@d\n", @sd);
	printa("quantize %d %@d\n", @q);
	printa("lquantize %d %@d\n", @l);
	printa("llquantize %d %@d\n", @ll);
}
