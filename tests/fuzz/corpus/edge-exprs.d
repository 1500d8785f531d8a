BEGIN
{
	x = 1 + 2 * 3 - 4 / 2 % 3 << 1 >> 1 & 0xff | 0x100 ^ 077;
	y = x > 3 ? x < 9 ? 1 : 2 : -x;
	z = !x && ~y || x ^^ y;
	x += 1; x -= 1; x *= 2; x /= 2; x %= 3; x &= 1; x |= 2; x ^= 3; x <<= 1; x >>= 1;
	x++; ++x; x--; --x;
	c = 'a' + '\n' + '\0' + '\x41' + '\101';
	s = "tab\there \"q\" \\ \101 \x42";
	u = (uint8_t)-1; l = (long)(char)300; p = (char *)0;
	t = 18446744073709551615; t = 9223372036854775807; t = 0x7fffffffffffffffLL;
	t = 1u; t = 1UL; t = 1ull;
	printf("%d %u %x %s %c %5.2d %-10s %@d %a %p %%\n", x, y, z, s, c, x, s, x, 0, 0);
	exit(0);
}
