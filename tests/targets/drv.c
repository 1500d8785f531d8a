/*
 * drv LIB: dlopen() LIB and call its big_entry(&stop), which loops until
 * SIGTERM sets stop.  Each run is given a copy of its own of one large
 * library (tests/sh/long-run.sh, bench/hour.sh), so that every process
 * maps a file dscope has not seen and must build that file's symbols
 * and unwind tables anew.
 */
#include <dlfcn.h>
#include <signal.h>
#include <stdio.h>

static volatile int stop;

static void on_term(int sig)
{
	stop = sig;
}

int main(int argc, char **argv)
{
	void *h;
	void (*entry)(volatile int *);

	signal(SIGTERM, on_term);
	if (argc < 2 || !(h = dlopen(argv[1], RTLD_NOW))) {
		fprintf(stderr, "drv: %s\n", argc < 2 ? "no library" : dlerror());
		return 1;
	}
	*(void **)&entry = dlsym(h, "big_entry");
	entry(&stop);
	return 0;
}
