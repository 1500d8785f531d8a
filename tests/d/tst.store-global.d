/*
 * A store through a pointer into a D global variable -- an element of a
 * global array, a member of a global struct -- goes there, as DTrace's
 * dtrace_canstore allows stores to its variables' storage; one that
 * would run past the variable it points into is an invalid address.
 */
#pragma D option quiet

int a[4];
struct s {
	int x;
	int y;
} st;

BEGIN
{
	p = &a[1];
	*p = 5;
	*(p + 2) = 7;
	q = &st.y;
	*q = 9;
	printf("%d %d %d %d %d %d\n", a[0], a[1], a[2], a[3], st.x, st.y);
}

BEGIN
{
	r = (long *)&a[3];
	*r = 1;
	printf("not reached\n");
}

BEGIN
{
	exit(0);
}

ERROR
{
	printf("fault %d\n", arg4);
}
