/* "option" is a pragma of "#pragma D" only: a bare "#option" is no
 * control directive (dt_pragma's DT_PRAGMA_DCP). */
#option quiet

BEGIN
{
	exit(0);
}
