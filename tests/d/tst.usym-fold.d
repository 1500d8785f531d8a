/*
 * usym(), ufunc() and umod() keys are functions and modules, not
 * addresses: DTrace folds each address to its function's (module's) when
 * it takes an aggregation's snapshot.  callsites calls leaf() 5 times
 * from one place in caller() and 7 from another: one row for the
 * function, two for uaddr().  %A names a user address in the -c process.
 * @@args: -q -c $B/targets/callsites
 */
pid$target::leaf:entry
{
	@func[ufunc(ucaller)] = count();
	@sym[usym(ucaller)] = count();
	@mod[umod(ucaller)] = count();
	@addr[uaddr(ucaller)] = count();
	@raw[ucaller] = count();
}

END
{
	printa("func %A %@d\n", @func);
	printa("sym %A %@d\n", @sym);
	printa("mod %A %@d\n", @mod);
	printa("addr %A %@d\n", @addr);
	printa("raw %A %@d\n", @raw);
	printa(@func);
	printa(@mod);
}
