/*
 * "#pragma D option defaultargs" holds for the $N after it, as the
 * -xdefaultargs option does: with no arguments given, $1 is 0 and $$2
 * is "" instead of an error.
 */
#pragma D option quiet
#pragma D option defaultargs

BEGIN
{
	printf("%d [%s] %d\n", $1, $$2, $1 + 1);
	exit(0);
}
