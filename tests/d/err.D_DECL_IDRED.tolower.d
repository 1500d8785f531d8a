/* tolower is one of D's subroutines (illumos dt_open.c): no variable may
 * take its name */
int tolower;

BEGIN
{
	exit(0);
}
