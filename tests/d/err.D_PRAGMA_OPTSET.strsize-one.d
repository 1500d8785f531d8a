/* strsize must leave room for DTrace's two-byte mark of a NULL string
 * (dt_opt_strsize): 1 is an invalid value. */
#pragma D option strsize=1

BEGIN
{
	exit(0);
}
