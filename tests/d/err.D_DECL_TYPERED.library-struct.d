/*
 * The D library's struct ipinfo is declared at its first lookup (so that
 * a script naming none of its types loads no kernel BTF for it), but a
 * script defining it again is still the redeclaration DTrace reports.
 */
struct ipinfo {
	int x;
};

BEGIN
{
	exit(0);
}
