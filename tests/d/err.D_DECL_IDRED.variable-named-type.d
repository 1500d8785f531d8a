/* A variable may not take the name of one of D's types: "typedef
 * identifier redeclared: uint32_t". */
int uint32_t;

BEGIN
{
	exit(0);
}
