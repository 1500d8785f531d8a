/*
 * fuzz_file.h -- the input as a file, for the harnesses of parsers that
 * read a path (tests/fuzz/README.md).
 *
 * dscope opens the ELF files of the processes it traces by path, so the
 * input is written to a file of its own, in a folder made once per
 * process under /dev/shm (memory; /tmp if there is none), and the parser
 * is handed that path: what it reads is what a crafted file on disk would
 * give it, through the same open and pread calls.  DSCOPE_DEBUGDIR points
 * into the folder, so a debug-file lookup (obj/debugfile.h) searches only
 * what the harness puts there.
 */
#ifndef DSCOPE_FUZZ_FILE_H
#define DSCOPE_FUZZ_FILE_H

#define _GNU_SOURCE	/* nftw's flags */

#include <fcntl.h>
#include <ftw.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char fuzz_dir[64];

static inline int fuzz_rm(const char *path, const struct stat *st, int type,
		   struct FTW *ftw)
{
	return remove(path);
}

/* The folder goes when the fuzzer exits normally (-runs, -max_total_time,
 * a replay). */
static inline void fuzz_cleanup(void)
{
	nftw(fuzz_dir, fuzz_rm, 16, FTW_DEPTH | FTW_PHYS);
}

/* Make the folder, once; abort if it cannot be made (the harness's own
 * failure, not a finding). */
static inline const char *fuzz_folder(void)
{
	char env[96];

	if (fuzz_dir[0])
		return fuzz_dir;
	snprintf(fuzz_dir, sizeof(fuzz_dir), "%s/dscope-fuzz-XXXXXX",
		 access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp");
	if (!mkdtemp(fuzz_dir))
		abort();
	snprintf(env, sizeof(env), "%s/debug", fuzz_dir);
	mkdir(env, 0700);
	setenv("DSCOPE_DEBUGDIR", env, 1);
	atexit(fuzz_cleanup);
	return fuzz_dir;
}

/* Empty the folder (and remake DSCOPE_DEBUGDIR), for a harness whose
 * files must not outlive an input. */
static inline void fuzz_reset(void)
{
	char debug[96];

	fuzz_cleanup();
	mkdir(fuzz_dir, 0700);
	snprintf(debug, sizeof(debug), "%s/debug", fuzz_dir);
	mkdir(debug, 0700);
}

/* data into the folder's file name (made, or replaced): its path in out. */
static inline void fuzz_write(const char *name, const uint8_t *data, size_t size,
		       char *out, size_t len)
{
	int fd;

	snprintf(out, len, "%s/%s", fuzz_folder(), name);
	fd = open(out, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0 || (size && write(fd, data, size) != (ssize_t)size))
		abort();
	close(fd);
}

#endif /* DSCOPE_FUZZ_FILE_H */
