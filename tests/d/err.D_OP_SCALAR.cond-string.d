/* The condition of ?: must be a scalar. */
BEGIN
{
	z = probename ? 1 : 2;
	exit(0);
}
