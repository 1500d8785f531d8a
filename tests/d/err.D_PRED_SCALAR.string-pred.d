/* A predicate must yield a scalar, not a string. */
BEGIN
/execname/
{
	exit(0);
}
