/*
 * strtok() of a string that is NULL when the clause runs -- strstr()
 * finding nothing -- is strtok(NULL, ...), as DTrace tests the address:
 * it goes on where the clause's last strtok() stopped, and with nothing
 * to go on from it is an invalid address, 0.
 */
#pragma D option quiet

BEGIN
{
	printf("%s ", strtok("one two", " "));
	printf("%s\n", strtok(strstr("abc", "zz"), " "));
}

BEGIN
{
	printf("%s\n", strtok(strstr("abc", "zz"), " "));
}

BEGIN
{
	exit(0);
}

ERROR
{
	printf("fault %d at %d\n", arg4, arg5);
}
