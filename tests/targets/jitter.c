/*
 * jitter [N] -- a JIT in miniature: it writes two functions of machine
 * code into an anonymous executable page,
 *
 *	jit_getppid	mov $110, %eax; syscall; ret	(getppid)
 *	jit_getppid_2	the same, 16 bytes further on
 *
 * names them in /tmp/perf-PID.map as JITs do for perf, then calls
 * jit_getppid N times (default 5) and jit_getppid_2 twice: exactly N + 2
 * getppid system calls, each made from JIT code, the user pc 7 bytes
 * into its function (past the syscall instruction).
 *
 * The map is removed as the process ends, the way a tidy JIT or its
 * launcher removes it: by a helper child that waits for this process's
 * end (its pipe closing, which happens after dscope's exit stop has read
 * the map), so a test can check the names outlived the file.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static const unsigned char getppid_code[] = {
	0xb8, 110, 0, 0, 0,	/* mov $110, %eax (SYS_getppid) */
	0x0f, 0x05,		/* syscall */
	0xc3,			/* ret */
};

/* Unlink path once this process is gone: a child blocked on a pipe
 * whose write end only this process holds. */
static void remove_at_end(const char *path)
{
	int fds[2];
	char c;

	if (pipe(fds) != 0)
		abort();
	switch (fork()) {
	case -1:
		abort();
	case 0:
		close(fds[1]);
		while (read(fds[0], &c, 1) > 0)
			;
		unlink(path);
		_exit(0);
	default:
		close(fds[0]);	/* fds[1] stays open until we end */
	}
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 5;
	char path[64];
	unsigned char *page;
	FILE *map;

	page = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
		    -1, 0);
	if (page == MAP_FAILED)
		abort();
	memcpy(page, getppid_code, sizeof(getppid_code));
	memcpy(page + 16, getppid_code, sizeof(getppid_code));
	if (mprotect(page, 4096, PROT_READ | PROT_EXEC) != 0)
		abort();

	snprintf(path, sizeof(path), "/tmp/perf-%d.map", (int)getpid());
	if (!(map = fopen(path, "w")))
		abort();
	fprintf(map, "%lx %zx jit_getppid\n", (unsigned long)page, sizeof(getppid_code));
	fprintf(map, "%lx %zx jit_getppid_2\n", (unsigned long)(page + 16),
		sizeof(getppid_code));
	fclose(map);
	remove_at_end(path);

	long (*fn)(void) = (long (*)(void))page;
	long (*fn2)(void) = (long (*)(void))(page + 16);

	for (int i = 0; i < n; i++)
		fn();
	for (int i = 0; i < 2; i++)
		fn2();
	return 0;
}
