/*
 * More aggregations and associative arrays than the kernel's 64 maps a
 * program: the ones past what a program can name are reached through
 * outer maps, one a shape, and every one counts exactly (loop's 50
 * getppid calls), as DTrace runs such scripts (aggs/tst.many-aggs-style).
 * @@args: -q -c "$B/targets/loop 50"
 */

syscall::getppid:entry
/pid == $target/
{
	@c00 = count();
	@c01 = count();
	@c02 = count();
	@c03 = count();
	@c04 = count();
	@c05 = count();
	@c06 = count();
	@c07 = count();
	@c08 = count();
	@c09 = count();
	@c10 = count();
	@c11 = count();
	@c12 = count();
	@c13 = count();
	@c14 = count();
	@c15 = count();
	@c16 = count();
	@c17 = count();
	@c18 = count();
	@c19 = count();
	@c20 = count();
	@c21 = count();
	@c22 = count();
	@c23 = count();
	@c24 = count();
	@c25 = count();
	@c26 = count();
	@c27 = count();
	@c28 = count();
	@c29 = count();
	@c30 = count();
	@c31 = count();
	@c32 = count();
	@c33 = count();
	@c34 = count();
	@c35 = count();
	@s00[probefunc] = sum(1);
	@s01[probefunc] = sum(2);
	@s02[probefunc] = sum(3);
	@s03[probefunc] = sum(4);
	@s04[probefunc] = sum(5);
	@s05[probefunc] = sum(6);
	@s06[probefunc] = sum(7);
	@s07[probefunc] = sum(8);
	@s08[probefunc] = sum(9);
	@s09[probefunc] = sum(10);
	@s10[probefunc] = sum(11);
	@s11[probefunc] = sum(12);
	@q00 = quantize(1);
	@q01 = quantize(2);
	@q02 = quantize(4);
	@q03 = quantize(8);
	@q04 = quantize(16);
	@q05 = quantize(32);
	a00[pid] = 1;
	a01[pid] = 2;
	a02[pid] = 3;
	a03[pid] = 4;
	a04[pid] = 5;
	a05[pid] = 6;
	a06[pid] = 7;
	a07[pid] = 8;
	a08[pid] = 9;
	a09[pid] = 10;
	a10[pid] = 11;
	a11[pid] = 12;
	a12[pid] = 13;
	a13[pid] = 14;
	a14[pid] = 15;
	a15[pid] = 16;
}

END
{
	printf("%d %d %d %d\n", a00[$target], a07[$target], a15[$target], a15[$target + 1]);
	a15[$target] = 0;
	printf("%d\n", a15[$target]);
	printa("c00 %@d c35 %@d\n", @c00, @c35);
	printa("%s s11 %@d\n", @s11);
	printa(@q05);
	clear(@c17);
	printa("c17 %@d\n", @c17);
	exit(0);
}
