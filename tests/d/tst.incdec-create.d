/*
 * ++ and -- create the variable they are applied to, as assignment does
 * (dt_cook_op1): a global, an associative array element, a thread-local.
 */
#pragma D option quiet

BEGIN
{
	x++;
	x++;
	a["k"]++;
	a["k"]++;
	a["k"]++;
	--b[1, "y"];
	self->n++;
	printf("%d %d %d %d %d\n", x, a["k"], b[1, "y"], self->n, a["other"]);
	exit(0);
}
