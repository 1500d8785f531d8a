/* A typedef may not take a D enumerator's name: "global variable identifier
 * redeclared" (dt_decl's DT_DC_TYPEDEF). */
enum colors { RED, GREEN };
typedef int RED;

BEGIN
{
	exit(0);
}
