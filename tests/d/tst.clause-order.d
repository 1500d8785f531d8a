/*
 * A clause's actions are checked before its predicate (dt_cook_clause):
 * "/!done/ { done = 1; }" finds done created by its own actions, and the
 * first such clause to run sets it for the next.  A variable only the
 * predicate creates sends the check back to do the predicate first.
 */
#pragma D option quiet

BEGIN
/!done/
{
	done = 1;
	printf("done %d\n", done);
}

BEGIN
/!done/
{
	printf("not reached\n");
}

BEGIN
/!seen["x"]/
{
	seen["x"] = 2;
	printf("seen %d\n", seen["x"]);
}

BEGIN
/(first = 7) > 0/
{
	printf("first %d\n", first);
}

BEGIN
{
	exit(0);
}
