/* another pointer in a first, then an alloca() one */
#pragma D option quiet
BEGIN
{
	b = (char *) curthread;
	a = b + 5;
}

BEGIN
{
	a = (char *) alloca(1);
	trace(a);
	exit(0);
}
