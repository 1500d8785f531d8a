/*
 * D arithmetic is done in 64-bit registers; a value is narrowed to its
 * type only when it is stored, recorded or cast (DTrace's dt_cg.c casts
 * in dt_cg_typecast, never after an operator).  (5 * i) * i overflows an
 * int, but the division brings it back before the result is stored.
 */
#pragma D option quiet

int i;
int j;

BEGIN
{
	i = 25920;
	i = i - (i + (i * 3) + i) * i / i * i;
	printf("%d\n", i);

	/* the intermediate (j * j) is not wrapped to an int before / j */
	j = 100000;
	printf("%d\n", j * j / j);
	/* but the recorded value of an int expression is an int */
	printf("%d\n", j * j);
	/* and a cast narrows at once */
	printf("%d\n", (int)(j * j) / j);
	exit(0);
}
