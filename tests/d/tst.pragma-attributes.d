/*
 * "#pragma D attributes" for names the program defines, before or after
 * the pragma: a global assigned later, an associative array, an inline.
 */
#pragma D option quiet
#pragma D attributes Stable/Stable/Common total
#pragma D attributes Evolving/Evolving/Common sizes

inline int limit = 3;
#pragma D attributes Stable/Stable/Common limit

BEGIN
{
	total = limit;
	sizes["a"] = 1;
	printf("%d %d\n", total, sizes["a"]);
	exit(0);
}
