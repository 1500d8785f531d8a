/* An enumerator may not take an associative array's name
 * (dt_decl_enumerator). */
int BLUE[int];
enum colors { RED, BLUE };

BEGIN
{
	exit(0);
}
