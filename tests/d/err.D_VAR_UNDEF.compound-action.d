/* p -= <action>: the undeclared p is found first (dt_cook_op2 cooks the
 * left-hand side as read and modified); the action's misuse would be the
 * code generator's, later. */
BEGIN
{
	q -= printf("x");
	exit(0);
}
