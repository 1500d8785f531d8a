/* #pragma D binding takes a quoted version, then an identifier. */
#pragma D binding 1.0 myvar

BEGIN
{
	exit(0);
}
