/* Only pointers and arrays can be dereferenced. */
BEGIN
{
	trace(*timestamp);
	exit(0);
}
