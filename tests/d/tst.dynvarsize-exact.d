/*
 * dynvarsize is DTrace's pool for every dynamic variable: it must hold
 * one entry of the largest tuple plus the largest value, by the D types'
 * sizes.  A thread-local has no tuple, and an int is 4 bytes: 4 is
 * enough here (err.dynvarsize-short is one byte short with a tuple).
 */
#pragma D option quiet
#pragma D option dynvarsize=4

BEGIN
{
	self->a = 7;
	self->a++;
	printf("%d\n", self->a);
	exit(0);
}
