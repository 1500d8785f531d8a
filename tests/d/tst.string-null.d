/*
 * A string takes 0 and NULL (dt_node_is_ptrcompat: a char array and a
 * null pointer): a global becomes NULL, a dynamic variable is freed and
 * reads as NULL again (printing it would fault: tst.null-string-fault),
 * and NULL and "" are one key.
 */
#pragma D option quiet

string g;

BEGIN
{
	g = "set";
	self->path = "/etc/passwd";
	a["k"] = "v";
	printf("%s %d %d %d\n", g, g == NULL, self->path != NULL, a["k"] != 0);
	g = NULL;
	self->path = 0;
	a["k"] = NULL;
	printf("%d %d %d %d\n", g == NULL, self->path != NULL,
	    a["k"] != 0, a["never"] == NULL);
	@keys[a["never"]] = count();
	@keys[""] = count();
	exit(0);
}

END
{
	printa("[%s] %@d\n", @keys);
}
