/*
 * An integer inline of constant value is that constant where it is used
 * (dt_node_ident), so it can be an aggregating function's parameter:
 * lquantize's limit and step, llquantize's factor.
 */
#pragma D option quiet

inline int LIMIT = 30;
inline int STEP = 5 * 2;
inline int FACTOR = 10;

BEGIN
{
	@l = lquantize(12, 0, LIMIT, STEP);
	@l = lquantize(25, 0, LIMIT, STEP);
	@ll = llquantize(150, FACTOR, 0, 3, 10);
	exit(0);
}
