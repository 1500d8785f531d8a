/*
 * link_ntop(): Ethernet (6 bytes) and InfiniBand (20 bytes) addresses,
 * two lower-case hex digits a byte; a type known only at run time.
 */
#pragma D option quiet

BEGIN
{
	this->e = (uint8_t *)alloca(6);
	this->e[0] = 0x00;
	this->e[1] = 0x1b;
	this->e[2] = 0x21;
	this->e[3] = 0x0a;
	this->e[4] = 0xff;
	this->e[5] = 0x03;
	printf("%s\n", link_ntop(ARPHRD_ETHER, this->e));
	this->t = 1;
	printf("%s\n", link_ntop(this->t, this->e));
	this->i = (uint8_t *)alloca(20);
	this->i[0] = 0x80;
	this->i[9] = 0xab;
	this->i[19] = 0x01;
	printf("%s\n", link_ntop(ARPHRD_INFINIBAND, this->i));
	exit(0);
}
