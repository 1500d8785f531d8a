/*
 * paths: opens paths that do not exist, in a known order, then writes the
 * four bytes of the address 192.168.1.23 to /dev/null.  The ground truth
 * for copyinstr(), copyin() and the path subroutines: a trace of this
 * process sees exactly these strings and bytes.  Each path is read here
 * first: a probe cannot fault in a page the process has not touched yet,
 * and a string on such a page reads as "" (DTrace has the same limit).
 */
#include <fcntl.h>
#include <sys/syscall.h>
#include <unistd.h>

static const char *const paths[] = {
	"/dscope-nonexistent/a",
	"/dscope-nonexistent/dir/file.txt",
	"/dscope-nonexistent//x/../y/./z/",
	"/dscope-nonexistent/0123456789012345678901234567890123456789",
};

int main(void)
{
	int fd;

	for (unsigned i = 0; i < sizeof(paths) / sizeof(paths[0]); i++) {
		for (const volatile char *p = paths[i]; *p; p++)
			;
		syscall(SYS_openat, AT_FDCWD, paths[i], O_RDONLY);
	}
	fd = open("/dev/null", O_WRONLY);
	if (fd < 0)
		return 1;
	return write(fd, "\xc0\xa8\x01\x17", 4) == 4 ? 0 : 1;
}
