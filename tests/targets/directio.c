/*
 * directio FILE N -- writes a 64 KiB FILE and syncs it, then reads it N
 * times, 8 KiB at a time, with O_DIRECT: N reads that each go to the
 * block device as one 8 KiB read request (the page cache is bypassed
 * and nothing else is in flight, so nothing merges them).
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define CHUNK 8192
#define FILE_SIZE (8 * CHUNK)

int main(int argc, char **argv)
{
	static char buf[CHUNK] __attribute__((aligned(4096)));
	int n = argc > 2 ? atoi(argv[2]) : 10, fd;

	if (argc < 2)
		return 2;
	fd = open(argv[1], O_CREAT | O_TRUNC | O_WRONLY, 0600);
	memset(buf, 'x', sizeof(buf));
	for (int i = 0; i < FILE_SIZE / CHUNK; i++)
		if (fd < 0 || write(fd, buf, CHUNK) != CHUNK)
			return perror(argv[1]), 1;
	fsync(fd);
	close(fd);
	if ((fd = open(argv[1], O_RDONLY | O_DIRECT)) < 0)
		return perror(argv[1]), 1;
	for (int i = 0; i < n; i++)
		if (pread(fd, buf, CHUNK, (off_t)(i % (FILE_SIZE / CHUNK)) * CHUNK) != CHUNK)
			return perror("pread"), 1;
	close(fd);
	unlink(argv[1]);
	return 0;
}
