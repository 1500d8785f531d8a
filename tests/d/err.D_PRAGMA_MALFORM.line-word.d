/* #line takes a line number, then an optional quoted file name. */
#line seven

BEGIN
{
	exit(0);
}
