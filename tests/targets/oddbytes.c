/*
 * oddbytes: passes one path to chdir(2) whose bytes are hard to carry --
 * a quote, a backslash, a newline, a tab, a control byte, valid UTF-8
 * (U+00E9, U+20AC) and bytes that are not UTF-8 (0xff, a lone 0xc3) --
 * and writes those bytes to stdout in hex, the ground truth for output
 * formats that must carry any string exactly (tests/sh/oformat-json.sh).
 * The chdir fails (no such directory); the string is read here first, as
 * a probe cannot fault in a page the process has not touched.
 */
#include <stdio.h>
#include <sys/syscall.h>
#include <unistd.h>

static const char path[] =
	"/dscope-none/q\"b\\s\nnl\ttab\x01" "ctl \xc3\xa9\xe2\x82\xac \xff\xc3 end";

int main(void)
{
	for (const volatile char *p = path; *p; p++)
		printf("%02x", (unsigned char)*p);
	printf("\n");
	fflush(stdout);
	syscall(SYS_chdir, path);
	return 0;
}
