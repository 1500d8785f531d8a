/*
 * coldstr: hands string literals that lie on pages the process never
 * touched to a USDT probe and to a function, and says whether each page
 * was in the process's page tables before and after: a tracer's
 * copyinstr() of them must fault the page in, which a BPF program that
 * may not sleep cannot do.
 *
 *   shop:::order-placed(1, "book")      then "usdt before B after A"
 *   take_title("dune") (never reads it) then "pid before B after A"
 *
 * B and A are the page's present bit (/proc/self/pagemap, bit 63) just
 * before and just after: 0 and 1 when a tracer faulted the page in, 0
 * and 0 untraced.  Reading pagemap maps nothing.  Each literal fills a
 * 64 KiB-aligned 64 KiB block of its own, so the kernel's fault-around
 * (which maps the cached pages near a faulting one, 64 KiB by default)
 * never maps it for a neighbour.  Exits 2, saying so, if a page was
 * present before its probe: the premise did not hold.
 */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/sdt.h>
#include <unistd.h>

#define COLD(name, text)                                                    \
	const char name[65536]                                              \
		__attribute__((section(".cold_" #name), aligned(65536), used)) = text

COLD(usdt_title, "book");
COLD(pid_title, "dune");

static int present(const void *p)
{
	uint64_t e = 0;
	int fd = open("/proc/self/pagemap", O_RDONLY);
	off_t off = (off_t)((uintptr_t)p / 4096 * 8);

	if (fd < 0 || pread(fd, &e, 8, off) != 8) {
		perror("coldstr: /proc/self/pagemap");
		exit(1);
	}
	close(fd);
	return (int)(e >> 63);
}

__attribute__((noinline)) void take_title(const char *title)
{
	__asm__ volatile("" : : "r"(title) : "memory");
}

static void check(const char *what, const char *p, void (*fire)(void))
{
	int before = present(p);

	if (before) {
		printf("coldstr: %s's page was present before its probe\n", what);
		exit(2);
	}
	fire();
	printf("%s before %d after %d\n", what, before, present(p));
	fflush(stdout);
}

static void fire_usdt(void)
{
	DTRACE_PROBE2(shop, order__placed, 1, usdt_title);
}

static void fire_pid(void)
{
	take_title(pid_title);
}

int main(void)
{
	check("usdt", usdt_title, fire_usdt);
	check("pid", pid_title, fire_pid);
	return 0;
}
