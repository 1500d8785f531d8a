/*
 * A declared array takes one index; two make it an associative array
 * reference, which a scalar variable is not.
 */
int x[5];

BEGIN
{
	x[1, 2] = 1;
}
