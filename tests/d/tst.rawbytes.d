/*
 * rawbytes: trace() prints every value as DTrace's raw hex dump -- a
 * string's strsize bytes and its NUL, an integer's bytes in memory
 * order -- instead of as text.
 */
#pragma D option quiet
#pragma D option rawbytes
#pragma D option strsize=6

BEGIN
{
	trace(probeprov);
	trace((int)0x01020304);
	trace((char)'A');
	exit(0);
}
