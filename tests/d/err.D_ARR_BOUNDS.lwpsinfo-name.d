/*
 * lwpsinfo_t's pr_name is char [16], as DTrace's procfs.d declares it,
 * so a constant index past its end is refused when compiled; it still
 * reads as a string where one is wanted (tst.psinfo passes it to
 * basename()).
 */
BEGIN
{
	trace(curlwpsinfo->pr_name[16]);
	exit(0);
}
