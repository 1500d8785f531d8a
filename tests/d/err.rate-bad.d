/*
 * Rates are a whole number and a time suffix or hz, as DTrace reads them:
 * a fraction is refused.
 */
#pragma D option switchrate=0.5hz

BEGIN
{
	exit(0);
}
