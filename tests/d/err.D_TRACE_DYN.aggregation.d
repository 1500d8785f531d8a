/* trace()'s argument may be anything with a type of its own: an
 * aggregation is dynamic (dt_cg_act_trace), not an operand error. */
BEGIN
{
	@a = count();
	trace(@a);
	exit(0);
}
