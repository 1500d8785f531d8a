/*
 * readfiles DIR: creates DIR if needed, writes DIR/alpha.txt (1000 bytes) and DIR/beta.txt
 * (300 bytes), then reads alpha in 3 reads of 100 bytes and beta in 2
 * reads of 50.  Ground truth for fds[]: read(2) asked for 300 bytes of
 * DIR/alpha.txt and 100 of DIR/beta.txt.
 */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void make(const char *path, int size)
{
	char buf[1000];
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);

	memset(buf, 'x', sizeof(buf));
	if (fd < 0 || write(fd, buf, (size_t)size) != size)
		perror(path);
	close(fd);
}

static void readn(const char *path, int times, int size)
{
	char buf[1000];
	int fd = open(path, O_RDONLY);

	for (int i = 0; i < times; i++)
		if (read(fd, buf, (size_t)size) != size)
			perror(path);
	close(fd);
}

int main(int argc, char **argv)
{
	char a[4096], b[4096];
	const char *dir = argc > 1 ? argv[1] : "/tmp";

	mkdir(dir, 0755);	/* EEXIST is fine */
	snprintf(a, sizeof(a), "%s/alpha.txt", dir);
	snprintf(b, sizeof(b), "%s/beta.txt", dir);
	make(a, 1000);
	make(b, 300);
	readn(a, 3, 100);
	readn(b, 2, 50);
	unlink(a);
	unlink(b);
	return 0;
}
