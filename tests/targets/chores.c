/*
 * chores DIR -- a day's work whose every system call and function call
 * is known, for the corpus scripts (tests/corpus/) to count:
 *
 *   files    DIR/one, DIR/two, DIR/three created (openat, O_CREAT), and
 *            written 512 bytes at a time: 1, 2 and 3 writes (6 writes,
 *            3072 bytes); each closed.  Then each reopened read-only and
 *            read to the end in 256-byte reads: 2, 4 and 6 reads of data
 *            plus one read of 0 bytes each (15 reads, 3072 bytes).
 *   missing  DIR/absent opened twice: two ENOENT failures.
 *   calls    chore(n) for n = 1 .. 5, returning n * n (sum 55), each
 *            calling pause_ms(1) once (5 calls of the function
 *            pause_ms, 5 nanosleeps of 1 ms).
 *   children 4 children forked one after another, child k (k = 1 .. 4)
 *            exits with status k; the parent reaps each with waitpid.
 *
 * It prints "done" last, so a script's output ends after that line.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static char dir[256];

static void path_of(char *buf, size_t len, const char *name)
{
	snprintf(buf, len, "%s/%s", dir, name);
}

static void make_file(const char *name, int blocks)
{
	char path[300], block[512];
	int fd;

	path_of(path, sizeof(path), name);
	memset(block, 'c', sizeof(block));
	fd = openat(AT_FDCWD, path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0)
		exit(1);
	for (int i = 0; i < blocks; i++)
		if (write(fd, block, sizeof(block)) != (ssize_t)sizeof(block))
			exit(1);
	close(fd);
}

static void read_file(const char *name)
{
	char path[300], buf[256];
	int fd;

	path_of(path, sizeof(path), name);
	fd = openat(AT_FDCWD, path, O_RDONLY);
	if (fd < 0)
		exit(1);
	while (read(fd, buf, sizeof(buf)) > 0)
		;
	close(fd);
}

__attribute__((noinline)) void pause_ms(int ms)
{
	struct timespec ts = { 0, ms * 1000 * 1000 };

	nanosleep(&ts, NULL);
}

__attribute__((noinline)) int chore(int n)
{
	pause_ms(1);
	return n * n;
}

int main(int argc, char **argv)
{
	static const char *const names[] = { "one", "two", "three" };
	char path[300];
	int sum = 0;

	if (argc < 2)
		return 2;
	snprintf(dir, sizeof(dir), "%s", argv[1]);
	mkdir(dir, 0755);
	/* every path is built once before it is traced: a syscall probe
	 * reading a string cannot fault in a page the process never
	 * touched (only pid and usdt programs may sleep to) */
	for (int i = 0; i < 3; i++)
		make_file(names[i], i + 1);
	for (int i = 0; i < 3; i++)
		read_file(names[i]);
	path_of(path, sizeof(path), "absent");
	for (int i = 0; i < 2; i++)
		if (openat(AT_FDCWD, path, O_RDONLY) >= 0)
			return 1;
	for (int n = 1; n <= 5; n++)
		sum += chore(n);
	for (int k = 1; k <= 4; k++) {
		pid_t child = fork();
		int status;

		if (child == 0)
			_exit(k);
		if (waitpid(child, &status, 0) != child || WEXITSTATUS(status) != k)
			return 1;
	}
	printf("done\n");
	return sum == 55 ? 0 : 1;
}
