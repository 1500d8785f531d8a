/* A variable may not take the name of a D enumerator: enumerators are
 * global identifiers (dt_decl_enumerator puts them in dt_globals). */
enum colors { RED, GREEN };
int GREEN;

BEGIN
{
	exit(0);
}
