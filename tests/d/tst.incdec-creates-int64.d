/*
 * x++ and a[k]++ on new variables make them int64_t, as DTrace's
 * dt_cook_op1 does: they hold values past 2^32; a declared or assigned
 * global may be compounded.
 */
#pragma D option quiet

int declared;

BEGIN
{
	x++;
	x <<= 40;
	a["k"]++;
	a["k"] <<= 36;
	declared += 5;
	y = 2;
}

BEGIN
{
	y *= 21;
	printf("%d %d %d %d %d\n", x, a["k"], sizeof(x), declared, y);
	exit(0);
}
