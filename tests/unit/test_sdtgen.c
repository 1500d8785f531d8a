/*
 * test_sdtgen.c -- dscope -h's header text and the checks DTrace makes of
 * provider definitions.  The object (-G) is checked whole, linked into a
 * program, by tests/sh/usdt-header.sh.
 */
#include "test.h"

#include <stdlib.h>

#include "cg/sdtgen.h"
#include "front/parse.h"

static struct arena A;

/* The header for text, or NULL with *d filled if sdtgen_add refused it. */
static char *header(const char *text, struct diag *d)
{
	struct sdt_set set = { .a = &A };
	struct program *p;
	char *buf = NULL;
	size_t len;

	memset(d, 0, sizeof(*d));
	p = parse_program(&A, text, NULL, d);
	if (!p || sdtgen_add(&set, p, d) < 0)
		return NULL;
	FILE *f = open_memstream(&buf, &len);

	sdtgen_header(&set, f, "build/my-probes.h");
	fclose(f);
	return buf;
}

static void check_has(const char *text, const char *want)
{
	if (!text || !strstr(text, want)) {
		fprintf(stderr, "no [%s] in:\n%s\n", want, text ? text : "(null)");
		unit_failures++;
	}
}

TEST(sdtgen_header_macros)
{
	struct diag d;
	char *h = header("provider myserv {\n"
			 "\tprobe request__start(int, char *);\n"
			 "\tprobe a__b___c();\n};\n", &d);

	check_has(h, "#ifndef _MY_PROBES_H\n#define _MY_PROBES_H\n");
	check_has(h, "#define _SDT_HAS_SEMAPHORES 1\n");
	check_has(h, "#include <sys/sdt.h>\n");
	check_has(h, "/* myserv:::request-start (int, char *) */\n");
	check_has(h, "__extension__ extern unsigned short "
		     "myserv_request__start_semaphore\n\t__attribute__((unused)) "
		     "__attribute__((section(\".probes\")));\n");
	check_has(h, "#define MYSERV_REQUEST_START_ENABLED() \\\n"
		     "\t__builtin_expect(myserv_request__start_semaphore, 0)\n");
	check_has(h, "#define MYSERV_REQUEST_START(arg1, arg2) \\\n"
		     "\tDTRACE_PROBE2(myserv, request__start, arg1, arg2)\n");
	/* "__" folds to "_", left to right, as SystemTap folds it */
	check_has(h, "#define MYSERV_A_B__C() \\\n\tDTRACE_PROBE(myserv, a__b___c)\n");
	check_has(h, "/* myserv:::a-b-_c () */\n");
	free(h);
	arena_free(&A);
}

static void check_refused(const char *text, const char *tag, const char *msg,
			  int line)
{
	struct diag d;
	char *h = header(text, &d);

	CHECK(h == NULL);
	free(h);
	CHECK_STR(d.tag, tag);
	CHECK_STR(d.msg, msg);
	CHECK(d.line == line);
	arena_free(&A);
}

TEST(sdtgen_refuses)
{
	check_refused("provider p {\n\tprobe a(int);\n\tprobe a(char *);\n};",
		      "D_PROV_PRDUP", "probe redeclared: p:::a", 3);
	check_refused("provider p {\n\tprobe a__b();\n};\n"
		      "provider p {\n\tprobe a__b();\n};",
		      "D_PROV_PRDUP", "probe redeclared: p:::a-b", 5);
	check_refused("provider p4 { probe a(); };", "D_PROV_BADNAME",
		      "provider name may not end with a digit: p4", 1);
	check_refused("provider p {\n probe a(int, int, int, int, int, int, int, "
		      "int, int, int, int, int, int);\n};", "D_PROV_PRARGLEN",
		      "probe p:::a has 13 arguments, more than the 12 "
		      "<sys/sdt.h> carries", 2);
}
