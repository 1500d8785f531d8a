/*
 * Aggregations are never speculative: an aggregation after speculate()
 * is refused, as in DTrace.
 */
BEGIN
{
	speculate(speculation());
	@calls = count();
}
