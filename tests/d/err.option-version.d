/*
 * version names a D language version: one newer than the compiler's is
 * refused with DTrace's words (1.6.3 or 2.0 are accepted).
 * @@args: -xversion=99.1
 */
BEGIN
{
	exit(0);
}
