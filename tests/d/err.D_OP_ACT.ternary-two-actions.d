/* Two actions are arms of one type, void: then dt_cook_op3 refuses them
 * as actions in a conditional context. */
BEGIN
{
	x = 1;
	x ? printf("a\n") : printf("b\n");
	exit(0);
}
