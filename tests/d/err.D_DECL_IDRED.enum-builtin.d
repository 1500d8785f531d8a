/* An enumerator D declares may not take the name of a built-in variable:
 * "identifier redeclared: pid" (dt_decl_enumerator's D_DECL_IDRED). */
enum e { pid };

BEGIN
{
	exit(0);
}
