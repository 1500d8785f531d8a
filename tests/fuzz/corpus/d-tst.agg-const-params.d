/*
 * Parameters are integer constant expressions, folded at compile time:
 * a use spelled differently but with equal values is the same
 * aggregation.
 */
#pragma D option quiet

BEGIN
{
	@ = lquantize(3, -(5), 2 * 5, (int)5);
	@ = lquantize(7, 0 - 5, 10, 10 / 2, 1 << 2);
	@ll = llquantize(50, 5 * 2, 1, 3 - 1, 10);
	exit(0);
}
