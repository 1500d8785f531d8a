/*
 * A key that one firing could not make in an aggregation's map goes to
 * the next lane (spec.h), and a later firing makes it in the first, so
 * one key has entries in two maps: printa() shows it once, with both
 * counted, and trunc() and clear() act on both.  Key 2 is the second
 * new key of the first firing of a probe run with interrupts off.
 * @@args: -q
 */
tick-10ms
/n < 3/
{
	n++;
	@x[1] = count();
	@x[2] = count();
	@x[2] = count();
}

tick-10ms
/n == 3 && !done/
{
	done = 1;
	printa("all %d %@d\n", @x);
	trunc(@x, 1);
	printa("trunc %d %@d\n", @x);
	clear(@x);
	printa("clear %d %@d\n", @x);
	trunc(@x);
	printa("gone %d %@d\n", @x);
	exit(0);
}
