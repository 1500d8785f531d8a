/*
 * coldexec: forks one child that tries to exec a path that does not
 * exist (ENOENT), then /bin/true, each path a string literal on a page
 * the child never touched, and waits for it.  A tracer that reads the
 * path from the child's memory at the exec's start, where BPF cannot
 * fault the page in, fails; the kernel's own copy is always there.
 *
 * Each literal fills a 64 KiB-aligned 64 KiB block of its own (as in
 * coldstr.c), so the kernel's fault-around never maps it for a
 * neighbour.  The child exits 2, saying so, if a page was present before
 * its exec: the premise did not hold.  Reading pagemap maps nothing.
 */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#define COLD(name, text)                                                    \
	const char name[65536]                                              \
		__attribute__((section(".cold_" #name), aligned(65536), used)) = text

COLD(bad_path, "/nonexistent/dscope-coldexec");
COLD(true_path, "/bin/true");

static int present(const void *p)
{
	uint64_t e = 0;
	int fd = open("/proc/self/pagemap", O_RDONLY);
	off_t off = (off_t)((uintptr_t)p / 4096 * 8);

	if (fd < 0 || pread(fd, &e, 8, off) != 8) {
		perror("coldexec: /proc/self/pagemap");
		exit(1);
	}
	close(fd);
	return (int)(e >> 63);
}

static void try_exec(const char *path)
{
	char *argv[] = { "coldexec-child", NULL };

	if (present(path)) {
		printf("coldexec: %s's page was present before its exec\n", path);
		_exit(2);
	}
	execv(path, argv);
}

int main(void)
{
	int status;
	pid_t pid = fork();

	if (pid == 0) {
		try_exec(bad_path);	/* fails: ENOENT */
		try_exec(true_path);
		_exit(127);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid)
		return 1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}
