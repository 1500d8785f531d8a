/* A whole array cannot be assigned. */
long from[2];
long to[2];

BEGIN
{
	to = from;
	exit(0);
}
