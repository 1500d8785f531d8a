/* every D function's name is taken, the actions' too (dt_decl: built-in
 * identifier redeclared) */
inline int ustack = 1;

BEGIN
{
	exit(0);
}
