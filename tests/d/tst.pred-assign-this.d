/*
 * A clause-local made by the predicate has the type the predicate gave
 * it in the actions too: DTrace cooks the actions first, and a variable
 * they read that nothing has made yet (D_VAR_UNDEF) sends it back to cook
 * the predicate before them (dt_cook_clause).  Each of these was an
 * int64_t in the actions: the string and the pointer were refused, the
 * unsigned value compared as -1.
 */
#pragma D option quiet

BEGIN
/(this->s = "abc") != NULL && (this->p = curthread) != NULL &&
 ((this->u = (uint64_t)0 - 1) || 1)/
{
	printf("%s %d %d\n", this->s, this->p->pid == pid, this->u > 0);
	exit(0);
}
