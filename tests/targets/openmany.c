/*
 * openmany: opens 100 files, of which exactly 3 do not exist: the ground
 * truth for speculative tracing (a script that speculates on every open
 * and commits only the failed ones prints exactly these 3 paths).  Each
 * path is built on the stack first, so its page is present when a probe
 * copies it in.
 */
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

int main(void)
{
	int failed = 0;

	for (int i = 0; i < 100; i++) {
		char path[64];
		int fd;

		if (i == 17 || i == 42 || i == 88)
			snprintf(path, sizeof(path), "/dev/dscope-missing-%d", i);
		else
			snprintf(path, sizeof(path), "/dev/null");
		fd = openat(AT_FDCWD, path, O_RDONLY);
		if (fd < 0)
			failed++;
		else
			close(fd);
	}
	return failed == 3 ? 0 : 1;
}
