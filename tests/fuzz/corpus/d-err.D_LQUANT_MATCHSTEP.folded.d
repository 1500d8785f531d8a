/* A second use must repeat the first one's parameters, after folding. */
BEGIN
{
	@ = lquantize(0, 0, 10, 2 + 0);
	@ = lquantize(0, 0, 10, 1 + 0);
}
