/*
 * "#pragma D attributes" waits for the program to define the name as a
 * global, associative array or inline; a thread-local of that name is
 * not one, so by the end of the compile the pragma was for nothing.
 * tst.pragma-attributes names real ones.
 */
#pragma D attributes Stable/Stable/Common total

BEGIN
{
	self->total = 1;
	exit(0);
}
