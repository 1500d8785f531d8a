/* A thread-local variable declared again with another type. */
self int x;
self string x;

BEGIN
{
	exit(0);
}
