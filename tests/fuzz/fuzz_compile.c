/*
 * fuzz_compile.c -- libFuzzer over the front end and the code generator.
 *
 * Each input is a D program, compiled by compile_sources() exactly as
 * dscope -e compiles a script: parse, pragmas, probe matching, sema, cg
 * into a spec.  Nothing is loaded into the kernel.  What must hold for
 * every input, however malformed: the compile returns 0 or -1 with a
 * message in the diag, in bounded time, touching only memory it owns, and
 * arena_free() gives back everything it took (LeakSanitizer checks).
 *
 * Built twice (Makefile target fuzz, build/fuzz/):
 *   fuzz_compile       the input is the script.
 *   fuzz_compile_opts  (FUZZ_OPTIONS) the first two bytes choose options
 *                      and how the text is read (-n description or
 *                      script, macro arguments), the rest is the text.
 *
 * The catalog is made once: catalog__new() reads tracefs and BTF, which
 * is far too slow per input.  As root it sees this kernel's syscalls;
 * otherwise it falls back to its compiled-in table, and the fuzzer runs
 * just the same.  Probes made on demand (profile-N, tick-N) stay in it, so
 * it is remade when those pile up, keeping every input equally fast.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "driver/compile.h"
#include "prov/catalog.h"

#define FUZZ_MAX_ONDEMAND 1024	/* profile-N probes kept before a remake */

static struct catalog *cat;
static uint32_t cat_base;	/* catalog__count() of a fresh catalog */

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	cat = catalog__new();
	cat_base = catalog__count(cat);
	return 0;
}

#ifdef FUZZ_OPTIONS
/*
 * Byte 0: one bit per option below; byte 1: strsize, the macro arguments
 * and $target.  Options go through options_set(), as -x and pragmas do, so
 * the compiler sees only values dscope would accept.
 */
static void fuzz_options(const uint8_t **data, size_t *size,
			 struct options *o, struct compile_source *src,
			 struct compile_args *args)
{
	static char *const argv[] = { "fuzz.d", "1", "foo", "-3", NULL };
	static const char *const bits[][2] = {
		{ "quiet", NULL }, { "zdefs", NULL }, { "defaultargs", NULL },
		{ "destructive", NULL }, { NULL, NULL },	/* bit 4: -n text */
		{ "nspec", "16" }, { "aggsize", "64" }, { "dynvarsize", "16" },
	};
	static const char *const strsizes[] = {
		"256", "1", "2", "8", "16", "64", "1024", "4096",
	};
	uint8_t b0 = *size > 0 ? (*data)[0] : 0;
	uint8_t b1 = *size > 1 ? (*data)[1] : 0;
	size_t used = *size < 2 ? *size : 2;
	char err[128];

	*data += used;
	*size -= used;
	for (int i = 0; i < 8; i++)
		if ((b0 & (1 << i)) && bits[i][0] &&
		    options_set(o, bits[i][0], bits[i][1], err, sizeof(err)) < 0)
			abort();	/* the harness's own mistake */
	if (b0 & 16) {		/* -n text: a description alone is a clause */
		src->filename = NULL;
		src->probe_only = true;
	}
	if (options_set(o, "strsize", strsizes[b1 & 7], err, sizeof(err)) < 0)
		abort();
	args->argc = 1 + ((b1 >> 3) & 3);	/* $0, and $1..$3 or fewer */
	args->argv = argv;
	args->target_pid = b1 & 32 ? 4242 : 0;
}
#endif

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char *const argv[] = { "fuzz.d", NULL };
	struct compile_source src = { .filename = "fuzz.d" };
	struct compile_args args = { .argc = 1, .argv = argv };
	struct compile_result res;
	struct options o;
	struct arena a = { 0 };
	struct diag d = { 0 };
	char *text;

	if (catalog__count(cat) > cat_base + FUZZ_MAX_ONDEMAND) {
		catalog__free(cat);
		cat = catalog__new();
	}
	options_init(&o);
#ifdef FUZZ_OPTIONS
	fuzz_options(&data, &size, &o, &src, &args);
#endif
	/* the compiler reads a C string, as dscope hands it a file's text */
	text = malloc(size + 1);
	if (size)
		memcpy(text, data, size);
	text[size] = '\0';
	src.text = text;
	compile_sources(&a, cat, &src, 1, &args, &o, &res, &d);
	arena_free(&a);
	free(text);
	return 0;
}
