/* A void * cannot be read through. */
void *where;

BEGIN
{
	trace(*where);
	exit(0);
}
