/*
 * An index into a D array variable known only when the probe fires:
 * elements of ints, of structs and of rows are read and written, and an
 * index outside the array is a fault, DTRACEFLT_BADINDEX with the index
 * as arg5 (dtrace-utils' dt_cg_arithmetic_op), that abandons its clause.
 */
#pragma D option quiet

int a[5];
struct s { int x; int y; };
struct s sa[3];
int m[3][4];

BEGIN
{
	i = 3;
	a[i] = 30;
	a[i]++;
	a[i - 1] = 20;
	printf("%d %d %d %d\n", a[3], a[2], a[i], a[i - 1]);
	j = 1;
	sa[j].y = 7;
	sa[j].x = sa[j].y + 1;
	printf("%d %d\n", sa[1].x, sa[1].y);
	m[j][2] = 12;
	printf("%d %d\n", m[1][2], m[j][2]);
	p = &a[i];
	printf("%d\n", *p);
}

BEGIN
{
	i = 5;
	a[i] = 1;
	printf("not reached\n");
}

BEGIN
{
	i = -1;
	trace(a[i]);
	printf("not reached\n");
}

BEGIN
{
	printf("later clause %d\n", a[4]);
	exit(0);
}

ERROR
{
	printf("fault %d index %d\n", arg4, (long)arg5);
}
