/*
 * As a statement too, ?: on a condition known only when the probe fires
 * is an expression: DTrace folds only a constant condition (dt_node_op3);
 * any other goes to dt_cook_op3, which checks the arms' types before it
 * looks for actions, and an action's void and an int are incompatible.
 */
BEGIN
{
	x = 1;
	x ? printf("a\n") : 1;
	exit(0);
}
