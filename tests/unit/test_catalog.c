/*
 * test_catalog.c -- probe names, globs, profile periods, the syscall table
 * and dtrace -l output.  The tests that build a catalog read this kernel
 * (tracefs or BTF) and pass as root on any kernel that has the syscalls
 * named here.
 */
#include "test.h"

#include <stdlib.h>

#include "base/arena.h"
#include "prov/catalog.h"
#include "prov/syscalls.h"
#include "prov/tracefs.h"

static struct probe_desc desc(const char *prov, const char *mod, const char *func,
			      const char *name)
{
	return (struct probe_desc){ .prov = prov, .mod = mod, .func = func, .name = name };
}

static int count(struct catalog *cat, const char *prov, const char *mod,
		 const char *func, const char *name)
{
	struct probe_desc pd = desc(prov, mod, func, name);

	return catalog__match(cat, &pd, NULL, NULL);
}

static int keep_first(const struct probe *p, void *arg)
{
	const struct probe **out = arg;

	if (!*out)
		*out = p;
	return 0;
}

static const struct probe *find(struct catalog *cat, const char *prov,
				const char *mod, const char *func, const char *name)
{
	struct probe_desc pd = desc(prov, mod, func, name);
	const struct probe *p = NULL;

	catalog__match(cat, &pd, keep_first, &p);
	return p;
}

TEST(glob_matches_as_dtrace)
{
	CHECK(catalog_glob_match("read*", "read"));
	CHECK(catalog_glob_match("read*", "readv"));
	CHECK(catalog_glob_match("read*", "readlink"));
	CHECK(!catalog_glob_match("read*", "pread64"));
	CHECK(catalog_glob_match("*read*", "pread64"));
	CHECK(catalog_glob_match("*", ""));
	CHECK(!catalog_glob_match("?", ""));
	CHECK(catalog_glob_match("?ead", "read"));
	CHECK(catalog_glob_match("[rw]ead", "read"));
	CHECK(!catalog_glob_match("[!r]ead", "read"));
	CHECK(catalog_glob_match("[!r]ead", "bead"));
	CHECK(catalog_glob_match("sys_[a-c]*", "sys_brk"));
	CHECK(!catalog_glob_match("sys_[a-c]*", "sys_dup"));
	CHECK(catalog_glob_match("a*b*c", "aXbYbZc"));
	CHECK(!catalog_glob_match("a*b*c", "aXbYbZ"));
	CHECK(catalog_glob_match("\\*", "*"));
	CHECK(!catalog_glob_match("\\*", "x"));
	CHECK(!catalog_glob_match("[abc", "a"));	/* unclosed set */
	CHECK(catalog_glob_match("[]]", "]"));
	CHECK(catalog_glob_match("exit", "exit"));
	CHECK(!catalog_glob_match("exit", "exit_group"));
}

TEST(syscall_table_numbers)
{
	CHECK(syscall_nr("read") == 0);
	CHECK(syscall_nr("write") == 1);
	CHECK(syscall_nr("getppid") == 110);
	CHECK(syscall_nr("clock_nanosleep") == 230);
	CHECK(syscall_nr("openat") == 257);
	CHECK(syscall_nr("newfstatat") == 262);
	CHECK(syscall_nr("file_setattr") == 469);
	CHECK(syscall_nr("no_such_call") == -1);
	CHECK_STR(syscall_name(110), "getppid");
	CHECK_STR(syscall_name(4), "stat");
	CHECK(syscall_name(400) == NULL);
	CHECK(syscall_name(-1) == NULL);
}

/* The compiled-in table agrees with the build host's header, which is older
 * than the table but must never disagree with it. */
TEST(syscall_table_agrees_with_unistd_64)
{
	FILE *f = fopen("/usr/include/x86_64-linux-gnu/asm/unistd_64.h", "r");
	char line[256], name[128];
	int nr, seen = 0;

	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "#define __NR_%127s %d", name, &nr) != 2)
			continue;
		seen++;
		if (syscall_nr(name) != nr) {
			fprintf(stderr, "syscall %s: header %d, table %d\n", name, nr,
				syscall_nr(name));
			unit_failures++;
		}
	}
	fclose(f);
	CHECK(seen > 300);
}

TEST(profile_names_every_unit)
{
	static const struct {
		const char *name;
		enum prov_kind kind;
		uint64_t ns;
	} good[] = {
		{ "profile-97", PROV_PROFILE, 1000000000ULL / 97 },
		{ "profile-997hz", PROV_PROFILE, 1000000000ULL / 997 },
		{ "profile-10ms", PROV_PROFILE, 10000000ULL },
		{ "tick-100", PROV_TICK, 10000000ULL },
		{ "tick-5000", PROV_TICK, 200000ULL },
		{ "tick-200000ns", PROV_TICK, 200000ULL },
		{ "tick-200000nsec", PROV_TICK, 200000ULL },
		{ "tick-200us", PROV_TICK, 200000ULL },
		{ "tick-2000usec", PROV_TICK, 2000000ULL },
		{ "tick-1msec", PROV_TICK, 1000000ULL },
		{ "tick-1s", PROV_TICK, 1000000000ULL },
		{ "tick-5sec", PROV_TICK, 5000000000ULL },
		{ "tick-2m", PROV_TICK, 120000000000ULL },
		{ "tick-1min", PROV_TICK, 60000000000ULL },
		{ "tick-1h", PROV_TICK, 3600000000000ULL },
		{ "tick-1hour", PROV_TICK, 3600000000000ULL },
		{ "tick-1d", PROV_TICK, 86400000000000ULL },
		{ "tick-1day", PROV_TICK, 86400000000000ULL },
		{ "tick-1SEC", PROV_TICK, 1000000000ULL },
	};
	static const char *const bad[] = {
		"profile-n", "tick-n", "tick-", "profile-hz", "tick-1foo", "tick-0",
		"tick-0s", "tick-1seconds", "profile-1ns", "profile-1us",
		"profile-1usec", "tick-1nsec", "tick-199999ns", "profile-5001",
		"tick-99999999999999999999999s", "tick-999999999999999d",
		"tock-1s", "tick--1", "tick- 1",
	};

	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		enum prov_kind kind = PROV_DTRACE;
		uint64_t ns = 0;
		const char *why = NULL;

		if (catalog_parse_profile(good[i].name, &kind, &ns, &why) != 0 ||
		    kind != good[i].kind || ns != good[i].ns) {
			fprintf(stderr, "%s: got %llu (%s)\n", good[i].name,
				(unsigned long long)ns, why ? why : "");
			unit_failures++;
		}
	}
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		enum prov_kind kind;
		uint64_t ns;
		const char *why = NULL;

		if (catalog_parse_profile(bad[i], &kind, &ns, &why) != -1 || !why) {
			fprintf(stderr, "%s: accepted\n", bad[i]);
			unit_failures++;
		}
	}
}

TEST(tracefs_field_lines)
{
	struct arena a = { 0 };
	struct tracefs_field f;

	CHECK(tracefs_parse_field(&a, "\tfield:unsigned int fd;\toffset:16;\tsize:8;\tsigned:0;",
				  &f) == 0);
	CHECK_STR(f.type, "unsigned int");
	CHECK_STR(f.name, "fd");
	CHECK(f.offset == 16 && f.size == 8 && !f.is_signed);
	CHECK(tracefs_parse_field(&a, "field:char * buf;\toffset:24;\tsize:8;\tsigned:0;",
				  &f) == 0);
	CHECK_STR(f.type, "char *");
	CHECK_STR(f.name, "buf");
	CHECK(tracefs_parse_field(&a, "field:const char *const * argv;\toffset:24;"
				  "\tsize:8;\tsigned:0;", &f) == 0);
	CHECK_STR(f.type, "const char *const *");
	CHECK(tracefs_parse_field(&a, "field:char comm[16];\toffset:8;\tsize:16;\tsigned:1;",
				  &f) == 0);
	CHECK_STR(f.type, "char[16]");
	CHECK_STR(f.name, "comm");
	CHECK(f.size == 16 && f.is_signed);
	CHECK(tracefs_parse_field(&a, "field:__data_loc char[] name;\toffset:8;"
				  "\tsize:4;\tsigned:0;", &f) == 0);
	CHECK_STR(f.type, "__data_loc char[]");
	CHECK_STR(f.name, "name");
	CHECK(tracefs_parse_field(&a, "print fmt: \"%d\", REC->x", &f) < 0);
	CHECK(tracefs_parse_field(&a, "field:int;\toffset:8;\tsize:4;", &f) < 0);
	CHECK(tracefs_parse_field(&a, "field:int x\toffset:8;", &f) < 0);
	arena_free(&a);
}

TEST(catalog_dtrace_probes_come_first)
{
	struct catalog *cat = catalog__new();
	const struct probe *p = catalog__by_id(cat, 1);

	CHECK(p && p->kind == PROV_DTRACE);
	CHECK_STR(p ? p->name : NULL, "BEGIN");
	CHECK_STR(catalog__by_id(cat, 2)->name, "END");
	CHECK_STR(catalog__by_id(cat, 3)->name, "ERROR");
	CHECK(catalog__by_id(cat, 0) == NULL);
	CHECK(catalog__by_id(cat, catalog__count(cat) + 1) == NULL);
	CHECK(count(cat, "", "", "", "BEGIN") == 1);
	CHECK(count(cat, "dtrace", "", "", "") == 3);
	CHECK(count(cat, "", "", "read", "BEGIN") == 0);
	catalog__free(cat);
	catalog__free(NULL);
}

TEST(catalog_syscalls_of_this_kernel)
{
	static const struct {
		const char *name;
		int nr;
	} expect[] = {
		{ "read", 0 }, { "write", 1 }, { "getppid", 110 },
		{ "clock_nanosleep", 230 }, { "openat", 257 }, { "newfstatat", 262 },
		{ "fstat", 5 },
	};
	struct catalog *cat = catalog__new();
	int all = count(cat, "syscall", "", "", "");

	CHECK(all > 600 && all % 2 == 0);
	CHECK(count(cat, "syscall", "", "", "") == all);
	CHECK(count(cat, "syscall", "vmlinux", "*", "entry") == all / 2);
	for (size_t i = 0; i < sizeof(expect) / sizeof(expect[0]); i++) {
		const struct probe *p = find(cat, "syscall", "vmlinux", expect[i].name, "entry");

		CHECK(p && p->kind == PROV_SYSCALL && p->sysnr == expect[i].nr);
		CHECK(count(cat, "", "", expect[i].name, "") == 2);
	}
	CHECK_STR(find(cat, "", "", "fstat", "entry")->tp_event, "sys_enter_newfstat");
	CHECK_STR(find(cat, "", "", "read", "return")->tp_event, "sys_exit_read");
	CHECK(count(cat, "", "", "read", "entry") == 1);
	CHECK(count(cat, "", "", "*tick*", "entry") == 0);
	CHECK(count(cat, "", "", "no_such_call", "") == 0);
	catalog__free(cat);
}

static int check_read_prefix(const struct probe *p, void *arg)
{
	int *bad = arg;

	*bad += strncmp(p->func, "read", 4) != 0 || p->kind != PROV_SYSCALL;
	return 0;
}

TEST(catalog_globs_select_syscalls)
{
	struct catalog *cat = catalog__new();
	struct probe_desc pd = desc("syscall", "", "read*", "entry");
	int bad = 0;
	int n = catalog__match(cat, &pd, check_read_prefix, &bad);

	CHECK(n >= 5);	/* read readv readlink readahead readlinkat */
	CHECK(bad == 0);
	CHECK(find(cat, "syscall", "", "read*", "entry") &&
	      find(cat, "", "", "readv", "return"));
	catalog__free(cat);
}

static int stop_at_first(const struct probe *p, void *arg)
{
	(*(int *)arg)++;
	return -7;
}

TEST(catalog_callback_stops_the_walk)
{
	struct catalog *cat = catalog__new();
	struct probe_desc pd = desc("syscall", "", "", "");
	int calls = 0;

	CHECK(catalog__match(cat, &pd, stop_at_first, &calls) == -7);
	CHECK(calls == 1);
	catalog__free(cat);
}

TEST(catalog_profile_probes_on_demand)
{
	struct catalog *cat = catalog__new();
	uint32_t before = catalog__count(cat);
	const struct probe *p;

	CHECK(count(cat, "profile", "", "", "profile-97") == 1);
	CHECK(count(cat, "", "", "", "tick-1") == 1);
	CHECK(catalog__count(cat) == before);

	CHECK(count(cat, "", "", "", "tick-5sec") == 1);
	CHECK(catalog__count(cat) == before + 1);
	p = catalog__by_id(cat, before + 1);
	CHECK(p && p->kind == PROV_TICK && p->period_ns == 5000000000ULL);
	CHECK_STR(p->prov, "profile");
	CHECK(count(cat, "profile", "", "", "tick-5sec") == 1);
	CHECK(catalog__count(cat) == before + 1);

	CHECK(count(cat, "profile", "", "", "profile-10ms") == 1);
	p = find(cat, "prof*", "*", "", "profile-10ms");
	CHECK(p && p->kind == PROV_PROFILE && p->period_ns == 10000000ULL);

	/* globs never create, and a probe elsewhere is not a profile probe */
	CHECK(count(cat, "profile", "", "", "tick-3*") == 0);
	CHECK(count(cat, "", "", "BEGIN", "tick-1") == 0);
	CHECK(count(cat, "syscall", "", "", "tick-7s") == 0);
	CHECK(catalog__count(cat) == before + 2);

	CHECK(count(cat, "", "", "", "profile-1ns") == 0);
	CHECK(catalog__hint(cat) && strstr(catalog__hint(cat), "200us"));
	CHECK(count(cat, "", "", "", "tick-n") == 0);
	CHECK(catalog__hint(cat) != NULL);
	CHECK(count(cat, "", "", "", "BEGIN") == 1);
	CHECK(catalog__hint(cat) == NULL);
	catalog__free(cat);
}

/* dtrace -l's columns, %5d %10s %17s %33s %s, and -lv's sections. */
static char *list(struct catalog *cat, const struct probe_desc *pd, bool verbose)
{
	char *text = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&text, &len);

	catalog__list_header(out);
	catalog__list(cat, out, pd, verbose);
	fclose(out);
	return text;
}

TEST(list_output_columns)
{
	struct catalog *cat = catalog__new();
	struct probe_desc pd = desc("dtrace", "", "", "BEGIN");
	char *text = list(cat, &pd, false);
	const struct probe *e = find(cat, "", "", "getppid", "entry");
	char want[512];

	CHECK_STR(text,
		  "   ID   PROVIDER            MODULE                          FUNCTION NAME\n"
		  "    1     dtrace                                                     BEGIN\n");
	free(text);

	pd = desc("syscall", "vmlinux", "getppid", "");
	text = list(cat, &pd, false);
	snprintf(want, sizeof(want),
		 "   ID   PROVIDER            MODULE                          FUNCTION NAME\n"
		 "%5u    syscall           vmlinux                           getppid entry\n"
		 "%5u    syscall           vmlinux                           getppid return\n",
		 e->id, e->id + 1);
	CHECK_STR(text, want);
	free(text);
	catalog__free(cat);
}

TEST(list_verbose_argument_types)
{
	struct catalog *cat;
	struct probe_desc pd = desc("syscall", "", "read", "entry");
	char *text;
	const char *sections =
		"\n\tProbe Description Attributes\n"
		"\t\tIdentifier Names: Private\n"
		"\t\tData Semantics:   Private\n"
		"\t\tDependency Class: Unknown\n"
		"\n\tArgument Attributes\n"
		"\t\tIdentifier Names: Private\n"
		"\t\tData Semantics:   Private\n"
		"\t\tDependency Class: ISA\n"
		"\n\tArgument Types\n"
		"\t\targs[0]: unsigned int\n"
		"\t\targs[1]: char *\n"
		"\t\targs[2]: size_t\n\n";

	/* the syscalls' argument types come from tracefs, root's alone */
	if (tracefs_unreadable())
		SKIP(tracefs_unreadable());
	cat = catalog__new();
	text = list(cat, &pd, true);
	CHECK(text && strstr(text, sections));
	free(text);

	pd = desc("syscall", "", "read", "return");
	text = list(cat, &pd, true);
	CHECK(text && strstr(text, "\n\tArgument Types\n\t\targs[0]: long\n\n"));
	free(text);

	pd = desc("dtrace", "", "", "END");
	text = list(cat, &pd, true);
	CHECK(text && strstr(text, "\t\tIdentifier Names: Stable\n"));
	CHECK(text && strstr(text, "\n\tArgument Types\n\t\tNone\n\n"));
	free(text);

	const struct probe *p = find(cat, "", "", "openat", "entry");
	CHECK(p && catalog__args(cat, p) == 4);
	if (p && p->nargs == 4) {
		CHECK_STR(p->args[1].type, "const char *");
		CHECK_STR(p->args[1].name, "filename");
	}
	catalog__free(cat);
}
