/*
 * inet_ntoa6(): an embedded IPv4 address alone, unless its second
 * argument is non-zero; inet_ntop(AF_INET) and inet_ntoa() of an ipaddr_t.
 * Expected values written by hand from the bytes.
 */
#pragma D option quiet

BEGIN
{
	this->m = (uint8_t *)alloca(16);	/* ::ffff:10.1.2.3 */
	this->m[10] = 0xff;
	this->m[11] = 0xff;
	this->m[12] = 10;
	this->m[13] = 1;
	this->m[14] = 2;
	this->m[15] = 3;
	this->c = (uint8_t *)alloca(16);	/* ::192.0.2.200 */
	this->c[12] = 192;
	this->c[15] = 200;
	this->c[14] = 2;
	this->v = (uint8_t *)alloca(16);	/* fe80::214:4fff:fe0b:76c8 */
	this->v[0] = 0xfe;
	this->v[1] = 0x80;
	this->v[8] = 0x02;
	this->v[9] = 0x14;
	this->v[10] = 0x4f;
	this->v[11] = 0xff;
	this->v[12] = 0xfe;
	this->v[13] = 0x0b;
	this->v[14] = 0x76;
	this->v[15] = 0xc8;
	printf("%s\n", inet_ntoa6((struct in6_addr *)this->m));
	printf("%s\n", inet_ntoa6((struct in6_addr *)this->m, 1));
	printf("%s\n", inet_ntoa6((struct in6_addr *)this->c));
	printf("%s\n", inet_ntoa6((struct in6_addr *)this->c, 7));
	printf("%s\n", inet_ntoa6((struct in6_addr *)this->v));
	this->a = (ipaddr_t *)alloca(sizeof (ipaddr_t));
	*this->a = htonl(0x0a000109);
	printf("%s\n", inet_ntoa(this->a));
	printf("%s\n", inet_ntop(AF_INET, this->a));
	exit(0);
}
