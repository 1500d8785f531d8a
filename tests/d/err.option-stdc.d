/*
 * stdc takes one of DTrace's -X modes, a, c, s or t.
 * @@args: -xstdc=X
 */
BEGIN
{
	exit(0);
}
