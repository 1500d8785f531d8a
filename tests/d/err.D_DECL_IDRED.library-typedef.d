/*
 * psinfo_t, a D library typedef declared at its first lookup, is still
 * taken when a script declares it again.
 */
typedef int psinfo_t;

BEGIN
{
	exit(0);
}
