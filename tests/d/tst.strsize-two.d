/* The least strsize DTrace takes is 2 (dt_opt_strsize); strings then
 * hold two characters, as at any strsize. */
#pragma D option strsize=2
#pragma D option quiet

BEGIN
{
	printf("[%s]\n", "abc");
	exit(0);
}
