/* the step must be a constant, not a variable */
BEGIN
{
	s = 2;
	@ = lquantize(1, 0, 10, s);
}
