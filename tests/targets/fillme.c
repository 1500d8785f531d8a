/*
 * fillme: calls fill_me(buf) once with a zeroed 8-byte buffer, then
 * prints the buffer's bytes in hex.  A pid probe on fill_me that copies
 * out into arg0 changes what it prints; untraced it prints zeros.
 */
#include <stdio.h>

void fill_me(unsigned char *buf)
{
	(void)buf;
}

int main(void)
{
	unsigned char buf[8] = { 0 };

	fill_me(buf);
	for (int i = 0; i < 8; i++)
		printf("%02x", buf[i]);
	printf("\n");
	return 0;
}
