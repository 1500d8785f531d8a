/* A scalar declared again as an associative array changes its kind:
 * "current: associative array int, previous: scalar int". */
int x;
int x[int];

BEGIN
{
	exit(0);
}
