/*
 * a[k] += n on an associative array no clause before has assigned.
 */
BEGIN
{
	sizes["read"] += 512;
	exit(0);
}
