/* A clause-local variable read before any clause assigns it. */
BEGIN
{
	trace(this->x);
	exit(0);
}
