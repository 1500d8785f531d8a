/*
 * D's string is a char array, so it may be passed where a void * is
 * expected (dt_node_is_ptrcompat): bcopy() copies its bytes.  Any
 * pointer casts to string, reading the characters it points to.
 */
#pragma D option quiet

BEGIN
{
	p = alloca(8);
	bcopy("dscope", p, 7);
	printf("%s\n", (string)p);
	q = (char *)alloca(4);
	bcopy(probename, q, 3);
	printf("%c%c%c\n", q[0], q[1], q[2]);
	exit(0);
}
