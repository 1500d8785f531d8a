/*
 * A pointer into a global array is a number like any other D pointer:
 * &a[0] + i, with i known only at run time, is loaded and stored through
 * (the verifier refused the sum of its map pointer and i).  A store that
 * runs past the variable's own bytes -- into the padding after b here --
 * is an invalid address, as DTrace's dtrace_canstore finds it outside
 * every variable (it went to the padding, unseen).
 */
#pragma D option quiet

int a[4];
int b;

BEGIN
{
	a[2] = 7;
	i = 2;
	printf("%d\n", *(&a[0] + i));
	*(&a[0] + i + 1) = 9;
	printf("%d\n", a[3]);
}

BEGIN
{
	i = 5;
	*(&a[0] + i) = 3;
	printf("not reached\n");
}

BEGIN
{
	exit(0);
}

ERROR
{
	printf("fault %d in action #%d\n", arg4, arg2);
}
