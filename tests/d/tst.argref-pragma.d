/*
 * argref permits an unreferenced last macro argument, here from a pragma
 * (err.D_MACRO_UNUSED.last-arg is the same script without it).
 * @@args: 7 8
 */
#pragma D option quiet
#pragma D option argref

BEGIN
{
	printf("%d\n", $1);
	exit(0);
}
