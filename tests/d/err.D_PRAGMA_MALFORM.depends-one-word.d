/* #pragma D depends_on takes a class and a name. */
#pragma D depends_on provider

BEGIN
{
	exit(0);
}
