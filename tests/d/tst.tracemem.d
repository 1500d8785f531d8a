/* tracemem(): DTrace's hex dump; a dynamic size shows fewer bytes, and
 * a size of 0 nothing */
#pragma D option quiet

BEGIN
{
	p = (char *)alloca(20);
	*p = 'a';
	*(p + 1) = 'b';
	*(p + 2) = 10;
	*(p + 17) = 'z';
	tracemem(p, 20);
	tracemem(p, 20, 2);
	tracemem(p, 20, 0);
	exit(0);
}
