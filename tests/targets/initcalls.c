/*
 * initcalls: calls getppid() once from a constructor, before main(), and
 * twice from main().  The ground truth for -x evaltime: probes enabled at
 * exec or at the entry point (preinit) count 3, at main() (postinit,
 * main) count 2; the dynamic linker's openat of libc is seen only from
 * exec.
 */
#include <sys/syscall.h>
#include <unistd.h>

__attribute__((constructor)) static void before_main(void)
{
	syscall(SYS_getppid);
}

int main(void)
{
	syscall(SYS_getppid);
	syscall(SYS_getppid);
	return 0;
}
