/*
 * D's arithmetic conversions are not C's (dt_type_promote): no promotion
 * to int, the operand of higher rank types the result, and a value is cut
 * to that type where it is kept (here: recorded by printf).  A shift has
 * its left operand's type.  Compound assignment reads its left operand
 * before the right one runs (dt_cg_arithmetic_op).
 */
#pragma D option quiet

unsigned char C;
signed char c;
short s;
unsigned short S;

BEGIN
{
	C = 254; c = 3;
	printf("%d %d\n", C + c, c + C);
	C = 2; c = -3;
	printf("%d\n", C + c);
	c = 100;
	printf("%d %d\n", c + c, (c + c) / 2);
	S = 65535; c = 2;
	printf("%d\n", S + c);
	s = 0x4000;
	printf("%d %d\n", s << 2, s + 1);
	i = 4;
	i += i++ + 1;
	printf("%d\n", i);
	exit(0);
}
