/* depends_on's class is provider, module or library (dt_pragma_depends). */
#pragma D depends_on driver sd

BEGIN
{
	exit(0);
}
