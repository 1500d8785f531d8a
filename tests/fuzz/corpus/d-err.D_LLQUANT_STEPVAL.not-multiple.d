/* steps above the factor must be a multiple of it */
BEGIN
{
	@ = llquantize(1, 10, 1, 3, 15);
}
