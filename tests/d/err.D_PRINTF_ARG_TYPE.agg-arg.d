/*
 * An aggregation passed to printf() is checked against the conversion,
 * which takes no aggregation: D_PRINTF_ARG_TYPE, as in DTrace.
 */
BEGIN
{
	@c = count();
	printf("%d\n", @c);
}
