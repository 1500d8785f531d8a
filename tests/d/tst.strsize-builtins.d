/*
 * The builtin strings hold what strsize allows, as every string does
 * (d/types.c: dtype_string_bound()): under strsize=5, "END" (strsize - 2
 * characters) is whole, "BEGIN" (strsize) too, "dtrace" (strsize + 1)
 * and "dscope" lose their last character -- printed, traced, kept in
 * variables and used as keys alike.
 */
#pragma D option quiet
#pragma D option strsize=5

BEGIN
{
	printf("[%s] [%s] [%s]\n", probeprov, probename, execname);
	trace(probeprov);
	trace(execname);
	printf("\n");
	x = execname;
	self->p = probeprov;
	printf("[%s] [%s] %d %d\n", x, self->p, strlen(execname),
	    execname == "dscop");
	@[probeprov, execname] = count();
	exit(0);
}

END
{
	printf("[%s] [%s]\n", probename, strjoin(probename, probeprov));
	printa("[%s] [%s] %@d\n", @);
}
