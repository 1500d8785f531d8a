/*
 * spinwalk -- spins until killed in a known call chain through libc:
 * main -> walk_a -> walk_b -> walk_c -> dl_iterate_phdr (libc) ->
 * spin_cb, which never returns.  Built like spinsort, optimised and
 * without frame pointers (tests/sh/ustack-systemwide.sh).
 */
#define _GNU_SOURCE
#include <link.h>
#include <stddef.h>

volatile unsigned long spins;	/* what the loop does, kept */
volatile int sink;		/* a use after each call: no tail calls */

static int spin_cb(struct dl_phdr_info *info, size_t size, void *data)
{
	for (;;)
		spins++;
	return 0;
}

__attribute__((noinline, noclone)) static int walk_c(void)
{
	int r = dl_iterate_phdr(spin_cb, NULL);

	sink = r;
	return r + 3;
}

__attribute__((noinline, noclone)) static int walk_b(void)
{
	int r = walk_c();

	sink = r;
	return r + 2;
}

__attribute__((noinline, noclone)) static int walk_a(void)
{
	int r = walk_b();

	sink = r;
	return r + 1;
}

int main(void)
{
	sink = walk_a();
	return 0;
}
