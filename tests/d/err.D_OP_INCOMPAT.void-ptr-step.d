/* void * points at nothing of known size: it cannot be stepped. */
void *base;

BEGIN
{
	trace((long)(base - 4));
	exit(0);
}
