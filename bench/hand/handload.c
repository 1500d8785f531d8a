/*
 * handload -- load hand.bpf.o's programs named on the command line and
 * attach them where their sections say, for bench.py's "hand" phase.
 *
 *   handload OBJECT PROG [PROG...]
 *
 * Prints "PROG PROG_ID" for each, then "ready" once attached, and stays
 * attached until its standard input reaches end of file (as bench/floor).
 */
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static int wanted(const char *name, int argc, char **argv)
{
	for (int i = 2; i < argc; i++)
		if (strcmp(argv[i], name) == 0)
			return 1;
	return 0;
}

int main(int argc, char **argv)
{
	struct bpf_object *obj;
	struct bpf_program *p;
	char buf[64];

	if (argc < 3) {
		fprintf(stderr, "usage: handload OBJECT PROG [PROG...]\n");
		return 2;
	}
	obj = bpf_object__open_file(argv[1], NULL);
	if (!obj) {
		fprintf(stderr, "handload: cannot open %s\n", argv[1]);
		return 1;
	}
	bpf_object__for_each_program(p, obj)
		bpf_program__set_autoload(p, wanted(bpf_program__name(p), argc, argv));
	if (bpf_object__load(obj)) {
		fprintf(stderr, "handload: cannot load %s\n", argv[1]);
		return 1;
	}
	bpf_object__for_each_program(p, obj) {
		struct bpf_prog_info info = { 0 };
		__u32 len = sizeof(info);

		if (!bpf_program__autoload(p))
			continue;
		if (!bpf_program__attach(p)) {
			fprintf(stderr, "handload: cannot attach %s\n", bpf_program__name(p));
			return 1;
		}
		bpf_obj_get_info_by_fd(bpf_program__fd(p), &info, &len);
		printf("%s %u\n", bpf_program__name(p), info.id);
	}
	printf("ready\n");
	fflush(stdout);
	while (read(0, buf, sizeof(buf)) > 0)
		;
	bpf_object__close(obj);
	return 0;
}
