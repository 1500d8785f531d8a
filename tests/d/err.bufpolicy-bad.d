/*
 * bufpolicy is switch, fill or ring; anything else is refused with
 * DTrace's words before anything is enabled.
 */
#pragma D option bufpolicy=sideways

BEGIN
{
	exit(0);
}
