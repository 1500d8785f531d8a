/*
 * timestamp is read once per probe firing: every use in every clause of
 * one firing sees the same value (DTrace's mstate cache), and the next
 * firing a later one.
 */
#pragma D option quiet

BEGIN
{
	this->a = timestamp;
	first = timestamp;
	same = this->a == timestamp;
}

BEGIN
{
	same = same && first == timestamp;
}

tick-1ms
/n++ == 1/
{
	printf("same within a firing: %d, later firing later: %d\n", same,
	    timestamp > first);
	exit(0);
}
