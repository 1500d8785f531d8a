/* An associative array declared twice keeps its tuple: a key of another
 * type is "identifier redeclared" (dt_decl compares each key). */
int x[int];
int x[string];

BEGIN
{
	exit(0);
}
