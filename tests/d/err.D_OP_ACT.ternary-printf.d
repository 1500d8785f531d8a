/* An action has no value for ?: to choose. */
BEGIN
{
	v = timestamp > 0 ? 1 : printf("never");
	exit(0);
}
