/*
 * NULL is DTrace's hard-wired "inline long NULL = 0" (dt_open.c's
 * _dtrace_hardwire): an integer, so %u and %d take it, sizeof is a
 * long's, and it still compares with pointers and strings.
 */
#pragma D option quiet

BEGIN
{
	p = (int *)0;
	s = strstr("abc", "x");
	printf("%u %d %d\n", NULL, NULL, sizeof(NULL));
	printf("%d %d\n", p == NULL, s == NULL);
	exit(0);
}
