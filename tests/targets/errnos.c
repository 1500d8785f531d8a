/*
 * errnos: system calls that fail in known ways, a known number of times.
 *   close(-1)                        7 times  -> EBADF  (9)
 *   openat(AT_FDCWD, "/nonexistent") 3 times  -> ENOENT (2)
 *   getppid()                        5 times  -> succeeds, returns the parent
 */
#include <fcntl.h>
#include <sys/syscall.h>
#include <unistd.h>

int main(void)
{
	for (int i = 0; i < 7; i++)
		syscall(SYS_close, -1);
	for (int i = 0; i < 3; i++)
		syscall(SYS_openat, AT_FDCWD, "/nonexistent/dscope", O_RDONLY);
	for (int i = 0; i < 5; i++)
		syscall(SYS_getppid);
	return 0;
}
