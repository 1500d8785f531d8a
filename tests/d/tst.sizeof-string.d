/*
 * sizeof a string variable is strsize, as in DTrace, though it holds
 * strsize characters and the NUL; a constant's is its length and NUL.
 */
#pragma D option quiet
#pragma D option strsize=100

BEGIN
{
	x = "abc";
	printf("%d %d\n", sizeof(x), sizeof("abc"));
	exit(0);
}
