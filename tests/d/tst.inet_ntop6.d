/*
 * inet_ntop(AF_INET6, ...): zero runs, ties, embedded IPv4 addresses.
 * Expected: glibc's inet_ntop(3) of the same bytes, but for ::0.0.0.2,
 * which DTrace takes as IPv4-compatible (six zero words, then not 0 or 1)
 * where glibc prints ::2.
 */
#pragma D option quiet

BEGIN
{
	this->p = (uint8_t *)alloca(16);	/* fe80::1 */
	this->p[0] = 0xfe;
	this->p[1] = 0x80;
	this->p[15] = 0x01;
	printf("%s\n", inet_ntop(AF_INET6, this->p));
	this->p = (uint8_t *)alloca(16);	/* 2001:db8::ff00:42:8329 */
	this->p[0] = 0x20;
	this->p[1] = 0x01;
	this->p[2] = 0x0d;
	this->p[3] = 0xb8;
	this->p[10] = 0xff;
	this->p[13] = 0x42;
	this->p[14] = 0x83;
	this->p[15] = 0x29;
	printf("%s\n", inet_ntop(AF_INET6, this->p));
	this->p = (uint8_t *)alloca(16);	/* 2001:db8:0:0:1:0:0:1 */
	this->p[0] = 0x20;
	this->p[1] = 0x01;
	this->p[2] = 0x0d;
	this->p[3] = 0xb8;
	this->p[9] = 0x01;
	this->p[15] = 0x01;
	printf("%s\n", inet_ntop(AF_INET6, this->p));
	this->p = (uint8_t *)alloca(16);	/* 1:0:2:0:0:0:3:0 */
	this->p[1] = 0x01;
	this->p[5] = 0x02;
	this->p[13] = 0x03;
	printf("%s\n", inet_ntop(AF_INET6, this->p));
	this->p = (uint8_t *)alloca(16);	/* ::ffff:10.1.2.3 */
	this->p[10] = 0xff;
	this->p[11] = 0xff;
	this->p[12] = 0x0a;
	this->p[13] = 0x01;
	this->p[14] = 0x02;
	this->p[15] = 0x03;
	printf("%s\n", inet_ntop(AF_INET6, this->p));
	this->p = (uint8_t *)alloca(16);	/* ::10.1.2.3 */
	this->p[12] = 0x0a;
	this->p[13] = 0x01;
	this->p[14] = 0x02;
	this->p[15] = 0x03;
	printf("%s\n", inet_ntop(AF_INET6, this->p));
	this->p = (uint8_t *)alloca(16);	/* :: */
	printf("%s\n", inet_ntop(AF_INET6, this->p));
	this->p = (uint8_t *)alloca(16);	/* ::1 */
	this->p[15] = 0x01;
	printf("%s\n", inet_ntop(AF_INET6, this->p));
	this->p = (uint8_t *)alloca(16);	/* 0:0:0:0:0:1:0:0 */
	this->p[11] = 0x01;
	printf("%s\n", inet_ntop(AF_INET6, this->p));
	this->p = (uint8_t *)alloca(16);	/* ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff */
	this->p[0] = 0xff;
	this->p[1] = 0xff;
	this->p[2] = 0xff;
	this->p[3] = 0xff;
	this->p[4] = 0xff;
	this->p[5] = 0xff;
	this->p[6] = 0xff;
	this->p[7] = 0xff;
	this->p[8] = 0xff;
	this->p[9] = 0xff;
	this->p[10] = 0xff;
	this->p[11] = 0xff;
	this->p[12] = 0xff;
	this->p[13] = 0xff;
	this->p[14] = 0xff;
	this->p[15] = 0xff;
	printf("%s\n", inet_ntop(AF_INET6, this->p));
	this->p = (uint8_t *)alloca(16);	/* 1:2:3:4:5:6:7:0 */
	this->p[1] = 0x01;
	this->p[3] = 0x02;
	this->p[5] = 0x03;
	this->p[7] = 0x04;
	this->p[9] = 0x05;
	this->p[11] = 0x06;
	this->p[13] = 0x07;
	printf("%s\n", inet_ntop(AF_INET6, this->p));
	this->p = (uint8_t *)alloca(16);	/* ::0.0.0.2 */
	this->p[15] = 2;
	printf("%s\n", inet_ntop(AF_INET6, this->p));
	exit(0);
}
