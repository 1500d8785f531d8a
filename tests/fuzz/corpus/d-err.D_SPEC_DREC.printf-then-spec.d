/*
 * speculate() must come before the clause records anything: the data
 * before it would not be speculative.
 */
BEGIN
{
	printf("not speculative\n");
	speculate(1);
}
