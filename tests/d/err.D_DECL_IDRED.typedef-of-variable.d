/* A typedef may not take a variable's name: "global variable identifier
 * redeclared" (dt_decl's DT_DC_TYPEDEF). */
int x;
typedef int x;

BEGIN
{
	exit(0);
}
