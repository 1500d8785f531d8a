/* A clause's actions are cooked before its predicate; when they read a
 * variable only the predicate assigns, DTrace cooks the predicate first
 * and tries again (dt_cook_clause), for self-> variables too. */
#pragma D option quiet

BEGIN
/(self->n = 5) > 0/
{
	printf("%d\n", self->n);
	exit(0);
}
