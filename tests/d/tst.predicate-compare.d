/*
 * Predicates that compare integers jump on the comparison itself, with a
 * 32-bit constant as the jump's immediate: signed and unsigned, narrow
 * and wide, constants that fit in 32 bits and ones that do not, must all
 * keep C's rules.  Each clause prints its letter when its predicate holds.
 * @@args: -q
 */
int x;
unsigned int u;
uint64_t big;
int64_t neg;

BEGIN
{
	x = -5;
	u = 4000000000;
	big = 0xffffffff00000000;
	neg = -4294967296;
}

BEGIN /x < 0/ { printf("a"); }
BEGIN /x < -5/ { printf("!"); }
BEGIN /x >= -5/ { printf("b"); }
BEGIN /x == -5/ { printf("c"); }
BEGIN /x != -5/ { printf("!"); }
BEGIN /x > -6 && x <= -5/ { printf("d"); }
BEGIN /u > 5/ { printf("e"); }
BEGIN /u > 3000000000/ { printf("f"); }
BEGIN /u == 4000000000/ { printf("g"); }
BEGIN /u < 0/ { printf("!"); }
BEGIN /u > -1/ { printf("!"); }
BEGIN /big > 0xfffffffe00000000/ { printf("h"); }
BEGIN /big > 2147483647/ { printf("i"); }
BEGIN /neg < -2147483648/ { printf("j"); }
BEGIN /neg < 0/ { printf("k"); }
BEGIN /x < u/ { printf("!"); }
BEGIN /(unsigned int)x > 5/ { printf("l"); }
BEGIN /x + 5 == 0/ { printf("m"); }

BEGIN
{
	printf("\n");
	exit(0);
}
