/*
 * min() and max() over values that arrive on two CPUs (cpuhop pins
 * itself to CPU 0, then 1, then 0): every CPU's copy counts.  Once, only
 * the copy of the CPU that made the entry did: another's started as
 * zeros that a max of positives replaced without marking it seen.
 * @@needs: [ "$(nproc)" -ge 2 ]
 * @@args: -q -c $B/targets/cpuhop
 */
pid$target::mark:entry
{
	@mn = min((long)arg0);
	@mx = max((long)arg0);
	@n = count();
	@s = sum((long)arg0);
	@cpus[cpu] = count();
}

END
{
	printa("min %@d max %@d\n", @mn, @mx);
	printa("count %@d sum %@d\n", @n, @s);
	printa("cpu %d %@d\n", @cpus);
}
