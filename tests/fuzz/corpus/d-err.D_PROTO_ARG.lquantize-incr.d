/* the increment must be scalar too */
BEGIN
{
	@ = lquantize(1, 0, 10, 1, "x");
}
