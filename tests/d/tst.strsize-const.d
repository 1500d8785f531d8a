/*
 * A string holds strsize characters: a longer constant is cut there,
 * a variable keeps all strsize of them.
 */
#pragma D option quiet
#pragma D option strsize=5

BEGIN
{
	x = "12345";
	printf("%d %d %s\n", strlen("123456789"), strlen(x), x);
	exit(0);
}
