/*
 * counted: does each thing the derived probes count a known number of
 * times, for tests/sh/derived.sh and the kernel guests' tests.
 *   counted yield N      sched_yield() N times
 *   counted sleep N      nanosleep 1 ms, N times; prints "blocked B" to
 *                        stderr, B the times the kernel switched it out
 *                        asleep (ru_nvcsw): a sleep whose timer fires
 *                        while the thread is preempted on its way to
 *                        schedule() never blocks, so B can be below N
 *   counted touch N      first touches N fresh anonymous pages (no THP)
 *   counted read N B     reads B bytes from /dev/zero, N times
 *   counted segv N       faults on an unmapped address N times (SIGSEGV
 *                        caught, siglongjmp out)
 *   counted sigwait N    takes N SIGUSR1s with sigtimedwait()
 *   counted ignored N    sends itself N SIGUSR2s, which it ignores
 *   counted spin MS      spins MS ms of its own CPU time
 *   counted nice N       setpriority() N times, to 1, 2, ..., 19, 1, ...
 *   counted lseek N F    lseek(-1, F + i, SEEK_SET) for i = 0 .. N-1: each
 *                        fails (EBADF), its offset numbering the call
 *   counted mapopen N P  opens path P N times, each time from a page of a
 *                        memfd mapped just before and not touched: a
 *                        probe's copy of the path faults at the entry
 *                        (no page table entry yet), the call's does not
 *   counted pipe N       writes a byte to a pipe and reads it back, N
 *                        times: the pipe's mutex taken 2N times
 *   counted mprotect N   mprotect() of a page at 0x5ca1ab1e000 to what it
 *                        is, N times: the mm's mmap_lock taken N times
 *                        for writing (the address tells these calls from
 *                        the dynamic linker's)
 *   counted fsync N DEV  fsync() of a block device N times: a cache
 *                        flush each, a bio the caller waits for
 *   counted majfault N DEV  first reads N pages of a block device mapped
 *                        with MADV_RANDOM (no readahead, no fault-around)
 *                        after dropping its page cache: N major faults
 *   counted cow N        writes N fresh anonymous pages, forks, and the
 *                        child writes each again: N copy-on-write faults
 *                        in the child
 *   counted dio N DEV    reads N pages of a block device with O_DIRECT,
 *                        a page each read, then writes them back likewise:
 *                        N bios of a page read, then N written
 *   counted swap N       writes N fresh anonymous pages (no THP), each
 *                        with its own number (never a page of zeros, which
 *                        a kernel may keep without writing it to swap),
 *                        then reads each back: under a memory limit of
 *                        fewer pages, pages swapped out and in again
 */
#define _GNU_SOURCE
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sched.h>
#include <fcntl.h>
#include <time.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>

static sigjmp_buf back;

static void on_segv(int sig)
{
	(void)sig;
	siglongjmp(back, 1);
}

static double cpu_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

int main(int argc, char **argv)
{
	long n = argc > 2 ? atol(argv[2]) : 0;
	const char *what = argc > 1 ? argv[1] : "";

	if (strcmp(what, "yield") == 0) {
		for (long i = 0; i < n; i++)
			sched_yield();
	} else if (strcmp(what, "sleep") == 0) {
		struct timespec ms = { 0, 1000000 };
		struct rusage before, after;

		getrusage(RUSAGE_THREAD, &before);
		for (long i = 0; i < n; i++)
			nanosleep(&ms, NULL);
		getrusage(RUSAGE_THREAD, &after);
		fprintf(stderr, "blocked %ld\n",
			after.ru_nvcsw - before.ru_nvcsw);
	} else if (strcmp(what, "touch") == 0) {
		long pg = sysconf(_SC_PAGESIZE);
		char *p = mmap(NULL, (size_t)(n * pg), PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

		if (p == MAP_FAILED)
			return 1;
		madvise(p, (size_t)(n * pg), MADV_NOHUGEPAGE);
		for (long i = 0; i < n; i++)
			p[i * pg] = 1;
	} else if (strcmp(what, "read") == 0) {
		size_t b = argc > 3 ? (size_t)atol(argv[3]) : 1;
		char *buf = malloc(b);
		int fd = open("/dev/zero", O_RDONLY);

		for (long i = 0; i < n; i++)
			if (read(fd, buf, b) != (ssize_t)b)
				return 1;
	} else if (strcmp(what, "segv") == 0) {
		volatile long i;

		signal(SIGSEGV, on_segv);
		for (i = 0; i < n; i++)
			if (!sigsetjmp(back, 1))
				*(volatile int *)16 = 1;
	} else if (strcmp(what, "sigwait") == 0) {
		sigset_t set;
		struct timespec never = { 60, 0 };

		sigemptyset(&set);
		sigaddset(&set, SIGUSR1);
		sigprocmask(SIG_BLOCK, &set, NULL);
		for (long i = 0; i < n; i++) {
			kill(getpid(), SIGUSR1);
			if (sigtimedwait(&set, NULL, &never) != SIGUSR1)
				return 1;
		}
	} else if (strcmp(what, "ignored") == 0) {
		signal(SIGUSR2, SIG_IGN);
		for (long i = 0; i < n; i++)
			kill(getpid(), SIGUSR2);
	} else if (strcmp(what, "spin") == 0) {
		double end = cpu_ms() + (double)n;

		while (cpu_ms() < end)
			;
	} else if (strcmp(what, "nice") == 0) {
		for (long i = 0; i < n; i++)
			setpriority(PRIO_PROCESS, 0, (int)(i % 19) + 1);
	} else if (strcmp(what, "lseek") == 0) {
		long first = argc > 3 ? atol(argv[3]) : 0;

		for (long i = 0; i < n; i++)
			lseek(-1, first + i, SEEK_SET);
	} else if (strcmp(what, "mapopen") == 0) {
		/* the path from a page just mapped, not yet touched: a
		 * probe's copy of it faults, the call's own brings it in */
		const char *path = argc > 3 ? argv[3] : "/dev/null";
		int mfd = memfd_create("counted-path", 0);

		if (mfd < 0 || write(mfd, path, strlen(path) + 1) < 0)
			return 1;
		for (long i = 0; i < n; i++) {
			char *p = mmap(NULL, 4096, PROT_READ, MAP_SHARED, mfd, 0);
			int fd;

			if (p == MAP_FAILED)
				return 1;
			fd = openat(AT_FDCWD, p, O_RDONLY);
			if (fd >= 0)
				close(fd);
			munmap(p, 4096);
		}
	} else if (strcmp(what, "pipe") == 0) {
		int fds[2];
		char c = 'x';

		if (pipe(fds) < 0)
			return 1;
		for (long i = 0; i < n; i++)
			if (write(fds[1], &c, 1) != 1 || read(fds[0], &c, 1) != 1)
				return 1;
	} else if (strcmp(what, "mprotect") == 0) {
		long pg = sysconf(_SC_PAGESIZE);
		void *p = mmap((void *)0x5ca1ab1e000, (size_t)pg, PROT_READ,
			       MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE,
			       -1, 0);

		if (p != (void *)0x5ca1ab1e000)
			return 1;
		for (long i = 0; i < n; i++)
			if (mprotect(p, (size_t)pg, PROT_READ) < 0)
				return 1;
	} else if (strcmp(what, "majfault") == 0) {
		long pg = sysconf(_SC_PAGESIZE);
		int fd = argc > 3 ? open(argv[3], O_RDONLY) : -1;
		volatile char *p;
		long sum = 0;

		if (fd < 0 || posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED) != 0)
			return 1;
		p = mmap(NULL, (size_t)(n * pg), PROT_READ, MAP_SHARED, fd, 0);
		if (p == MAP_FAILED || madvise((void *)p, (size_t)(n * pg), MADV_RANDOM) < 0)
			return 1;
		for (long i = 0; i < n; i++)
			sum += p[i * pg];
		return sum == 12345 ? 3 : 0;
	} else if (strcmp(what, "cow") == 0) {
		long pg = sysconf(_SC_PAGESIZE);
		char *p = mmap(NULL, (size_t)(n * pg), PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		pid_t child;
		int st;

		if (p == MAP_FAILED)
			return 1;
		madvise(p, (size_t)(n * pg), MADV_NOHUGEPAGE);
		for (long i = 0; i < n; i++)
			p[i * pg] = 1;
		child = fork();
		if (child == 0) {
			for (long i = 0; i < n; i++)
				p[i * pg] = 2;
			_exit(0);
		}
		if (child < 0 || waitpid(child, &st, 0) != child || st != 0)
			return 1;
	} else if (strcmp(what, "dio") == 0) {
		static char page[4096] __attribute__((aligned(4096)));
		int fd = argc > 3 ? open(argv[3], O_RDWR | O_DIRECT) : -1;

		if (fd < 0)
			return 1;
		for (long i = 0; i < n; i++)
			if (pread(fd, page, sizeof(page), i * 4096) != sizeof(page))
				return 1;
		for (long i = 0; i < n; i++)
			if (pwrite(fd, page, sizeof(page), i * 4096) != sizeof(page))
				return 1;
	} else if (strcmp(what, "swap") == 0) {
		long pg = sysconf(_SC_PAGESIZE);
		long *p = mmap(NULL, (size_t)(n * pg), PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		long per = pg / (long)sizeof(long);

		if (p == MAP_FAILED)
			return 1;
		madvise(p, (size_t)(n * pg), MADV_NOHUGEPAGE);
		for (long i = 0; i < n; i++)
			p[i * per] = i + 1;
		for (long i = 0; i < n; i++)
			if (p[i * per] != i + 1)
				return 1;
	} else if (strcmp(what, "fsync") == 0) {
		int fd = argc > 3 ? open(argv[3], O_RDWR) : -1;

		if (fd < 0)
			return 1;
		for (long i = 0; i < n; i++)
			if (fsync(fd) < 0)
				return 1;
	} else {
		fprintf(stderr, "usage: counted yield|sleep|touch|read|segv|"
			"sigwait|ignored|spin|nice|lseek|mapopen|pipe|mprotect|fsync|majfault|cow|dio|swap N "
			"[bytes|device|first|path]\n");
		return 2;
	}
	return 0;
}
