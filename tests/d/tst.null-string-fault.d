/*
 * A NULL string -- a string variable never assigned or assigned 0, or
 * what strchr() returns when it finds nothing -- is an invalid address
 * (fault 1 at 0) when traced or printed, as in DTrace; the clause stops
 * there, its earlier output ("set") discarded with it.  A string found
 * prints, and NULL still compares equal to "".
 */
#pragma D option quiet

self string t;
string s[int];

BEGIN
{
	trace(self->t);
}

BEGIN
{
	s[1] = "set";
	printf("%s\n", s[1]);
	s[1] = 0;
	printf("%s\n", s[1]);
}

BEGIN
{
	printf("%s\n", strchr("abc", 'z'));
}

ERROR
{
	n++;
	printf("fault %d at %d, %s %s\n", arg4, arg5, strchr("abc", 'b'),
	    "" == strchr("abc", 'z') ? "eq" : "ne");
}

ERROR
/n == 3/
{
	exit(0);
}
