/* nor that of an inline declared before it (dt_decl_enumerator) */
inline int OPT_dump = 1;
enum opts { OPT_time, OPT_dump };

BEGIN
{
	exit(0);
}
