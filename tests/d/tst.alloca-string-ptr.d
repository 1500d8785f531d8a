/*
 * A string * into alloca() memory: *p = "str" copies the string there
 * (NUL included, so a shorter one replaces a longer), and *p reads it
 * back as a string wherever a string goes: printf's %s in the middle of
 * a format, strlen(), a variable, an aggregation key.  A short string
 * fits a small allocation; a string * past the allocation faults.
 */
#pragma D option quiet

BEGIN
{
	p = (string *)alloca(240);
	*p = "hello";
	printf("[%s] after\n", *p);
	printf("%d\n", strlen(*p));
	*p = "hi";
	s = *p;
	printf("[%s] [%s]\n", s, *p);
	*p = strjoin(s, "!");
	@[*p] = count();
	small = (string *)alloca(8);
	*small = "x";
	printf("[%s]\n", *small);
}

BEGIN
{
	printa("%s %@d\n", @);
	*(p + 1) = "past the end";
	printf("not reached\n");
}

ERROR
{
	printf("fault %d at action %d\n", arg4, arg2);
	exit(0);
}
