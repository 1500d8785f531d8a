/*
 * A constant index past a declared array's end is an error in DTrace's
 * words (dt_cook_op2).
 */
int a[5];

BEGIN
{
	a[5] = 1;
}
