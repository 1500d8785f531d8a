/* printa of several aggregations joins on keys: the types must agree */
BEGIN
{
	@a[1] = count();
	@b["x"] = count();
	printa(@a, @b);
}
