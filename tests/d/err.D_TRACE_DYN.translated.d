/* Translated data has no type of its own to record: DTrace's xlate gives
 * its node the dynamic type, which trace() refuses (dt_cg_act_trace). */
BEGIN
{
	trace(xlate<psinfo_t *>(curthread));
	exit(0);
}
