/*
 * Declarations DTrace accepts: a function prototype may be static or
 * take (void) and register parameters; "this n;" is an int; a struct may
 * be declared without a declarator.
 */
#pragma D option quiet

static int helper(register int a, char *);
int nothing(void);
struct pair;
struct pair { int a; int b; };
this n;
self long t[4];

BEGIN
{
	this->n = 41;
	self->t[2] = this->n + 1;
	printf("%d %d\n", self->t[2], (int)sizeof(struct pair));
	exit(0);
}
