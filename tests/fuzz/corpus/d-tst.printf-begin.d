/* printf with integers of each width, strings, and exit() from BEGIN. */
#pragma D option quiet

BEGIN
{
	printf("%d %u %x %s|%-6s|%6s|\n", -5, 7, 255, "str", "ab", "cd");
	printf("%c%c %5.2d %%\n", 'o', 'k', 3);
	exit(0);
}
