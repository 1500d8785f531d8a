/* An associative array declared twice keeps its tuple's length. */
int x[int];
int x[int, int];

BEGIN
{
	exit(0);
}
