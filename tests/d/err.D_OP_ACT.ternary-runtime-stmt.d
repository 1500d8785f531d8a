/*
 * As a statement too, ?: on a condition known only when the probe fires
 * may not choose an action: DTrace folds only a constant condition
 * (dt_node_op3); any other goes to dt_cook_op3, which refuses actions.
 */
BEGIN
{
	x = 1;
	x ? printf("a\n") : 1;
	exit(0);
}
