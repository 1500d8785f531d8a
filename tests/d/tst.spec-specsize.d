/*
 * specsize bounds what one speculation holds: each record here is 24
 * bytes (header, tag, one integer), so 50 bytes hold two of them; the
 * third is a speculative drop, reported on stderr, and the commit prints
 * the two that were kept.  A speculate() on an ID that is not active
 * drops its clause silently, as DTrace.
 * @@needs: $B/dscope -e -n 'BEGIN { speculation(); }'
 */
#pragma D option quiet
#pragma D option specsize=50

BEGIN
{
	self->s = speculation();
}

BEGIN
{
	speculate(self->s);
	printf("kept %d\n", 1);
}

BEGIN
{
	speculate(self->s);
	printf("kept %d\n", 2);
}

BEGIN
{
	speculate(self->s);
	printf("dropped %d\n", 3);
}

BEGIN
{
	printf("before the commit\n");
}

BEGIN
{
	commit(self->s);
}

BEGIN
{
	speculate(self->s);
	printf("not active any more\n");
}

BEGIN
{
	exit(0);
}
