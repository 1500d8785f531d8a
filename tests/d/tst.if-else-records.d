/*
 * Only the actions of the branch taken print: every action of a clause has
 * room in its one record, so the consumer must be told which ran.  Nested
 * ifs, an exit() in a branch not taken, a trace() and an aggregation
 * printed from a branch, and a clause whose only output is in a branch
 * not taken (no heading, no blank line).
 */
#pragma D option quiet

BEGIN
{
	n = 3;
	if (0) {
		printf("a\n");
	} else {
		printf("b\n");
	}
	if (n > 2) {
		printf("big %d\n", n);
		if (n == 3)
			printf("three\n");
		else
			printf("not three\n");
	} else {
		printf("small\n");
		trace(n);
	}
	@c = count();
	if (n == 4)
		exit(1);
	if (n == 3)
		printa("count %@d\n", @c);
	else
		printa("never %@d\n", @c);
}

BEGIN
{
	if (n == 4)
		printf("not printed\n");
}

BEGIN
{
	if (n != 3) {
		trace("not printed");
	} else if (n == 3) {
		printf("else-if\n");
	}
	exit(0);
}
