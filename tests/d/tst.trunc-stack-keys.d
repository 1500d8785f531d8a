/*
 * trunc(@, n) keeps the n rows with the highest values whatever the keys
 * are: rows keyed by a stack too.  callsites calls leaf() 7 times from
 * one place in caller() and 5 from another: two stacks, and trunc(@, 1)
 * leaves the 7.  (It once rebuilt the keys to delete from their printed
 * values, which do not hold a stack's frames, and deleted none.)
 * @@args: -q -c $B/targets/callsites
 */
pid$target::leaf:entry
{
	@u[ustack(2)] = count();
	@c[ucaller] = count();
}

END
{
	trunc(@u, 1);
	trunc(@c, -1);
	printa(@u);
	printa("least %A %@d\n", @c);
}
