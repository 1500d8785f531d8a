/* A thread-local variable has no address a program may take. */
BEGIN
{
	self->count = 3;
	trace(&self->count);
	exit(0);
}
