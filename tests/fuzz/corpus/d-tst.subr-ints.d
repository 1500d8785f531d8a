/*
 * Byte order, device numbers and progenyof(): the current process is its
 * own progeny and init's, never that of a pid that does not exist.
 */
#pragma D option quiet

BEGIN
{
	printf("%x %x %x\n", htons(0x1234), htonl(0x12345678),
	    htonll(0x0102030405060708));
	printf("%x %x %x\n", ntohs(0xabcd), ntohl(0xaabbccdd),
	    ntohll(0x1122334455667788));
	printf("%d %d\n", getmajor(0x800003), getminor(0x800003));
	printf("%d %d %d\n", progenyof(pid), progenyof(1), progenyof(-5));
	exit(0);
}
