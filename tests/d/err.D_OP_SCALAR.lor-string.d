/* || wants scalars on both sides: a string is not one. */
BEGIN
{
	x = 1 || probefunc;
	exit(0);
}
