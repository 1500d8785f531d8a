/*
 * replay.c -- a fuzz target's harness without libFuzzer: each file named
 * on the command line is read whole and given to LLVMFuzzerTestOneInput
 * once, as libFuzzer replays a crash.  `make check` builds one per file
 * parser target with gcc and the sanitizers (build/replay/fuzz_NAME) and
 * replays tests/fuzz/regress/NAME/ through it (tests/run.sh), so every
 * input that ever crashed a parser is run on every check, on machines
 * without clang too.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int main(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		FILE *f = fopen(argv[i], "rb");
		uint8_t *buf = NULL;
		size_t n = 0, cap = 0, got;

		if (!f) {
			perror(argv[i]);
			return 2;
		}
		do {
			if (n == cap && !(buf = realloc(buf, cap = 2 * cap + 4096)))
				abort();
			got = fread(buf + n, 1, cap - n, f);
			n += got;
		} while (got);
		fclose(f);
		/* an exact copy, so ASan sees a read one past the input's end */
		uint8_t *in = malloc(n ? n : 1);

		if (!in)
			abort();
		for (size_t k = 0; k < n; k++)
			in[k] = buf[k];
		free(buf);
		LLVMFuzzerTestOneInput(in, n);
		free(in);
	}
	return 0;
}
