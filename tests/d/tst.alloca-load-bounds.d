/*
 * Reads through a pointer into alloca() memory must stay in what the
 * clause allocated (DTrace's dtrace_canload of scratch): a byte past its
 * top, or an int starting before its bottom, is an invalid address that
 * ends the clause in ERROR; what was allocated reads back as written.
 */
#pragma D option quiet

BEGIN
{
	s = (char *)alloca(15);
	s[14] = 'x';
	printf("in bounds: %c\n", s[14]);
}

BEGIN
{
	s = (char *)alloca(15);
	printf("past the top: %d\n", s[16]);
}

BEGIN
{
	i = (int *)alloca(10);
	printf("before the bottom: %d\n", i[-1]);
}

BEGIN
{
	exit(0);
}

ERROR
{
	printf("fault %d in enabled probe %d, %s\n", arg4, arg1,
	    arg5 == 0 ? "at 0" : "at an address");
}
