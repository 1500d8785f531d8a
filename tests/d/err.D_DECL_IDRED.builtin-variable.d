/* A declaration may not take the name of one of DTrace's own identifiers:
 * "built-in identifier redeclared: pid" (dt_decl's default class). */
int pid;

BEGIN
{
	exit(0);
}
