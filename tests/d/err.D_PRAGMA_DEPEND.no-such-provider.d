/* A program that depends on a provider this system lacks is refused:
 * "program requires provider nosuchprov" (dt_pragma_depends). */
#pragma D depends_on provider nosuchprov

BEGIN
{
	exit(0);
}
