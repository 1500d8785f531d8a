/* "error" may follow "#pragma" as well as "#" (dt_pragma's DT_PRAGMA_DIR). */
#pragma error this program is not done

BEGIN
{
	exit(0);
}
