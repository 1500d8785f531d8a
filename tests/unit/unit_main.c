/*
 * unit_main.c -- run every registered unit test, in name order, and print
 * "N passed, N failed, N skipped".  `build/unit-tests NAME...` runs only
 * those named.
 */
#include "test.h"

#include <stdlib.h>
#include <unistd.h>

static struct unit_test *tests;
int unit_failures;
const char *unit_skipped;

const char *unit_target(const char *name)
{
	static char path[256];
	const char *b = getenv("B");

	snprintf(path, sizeof(path), "%s/targets/%s", b ? b : "build", name);
	if (access(path, R_OK) == 0)
		return path;
	fprintf(stderr, "%s: not built (make all builds the test targets)\n", path);
	unit_failures++;
	return NULL;
}

void unit_register(struct unit_test *t)
{
	struct unit_test **p = &tests;

	while (*p && strcmp((*p)->name, t->name) < 0)
		p = &(*p)->next;
	t->next = *p;
	*p = t;
}

static int selected(const char *name, int argc, char **argv)
{
	if (argc < 2)
		return 1;
	for (int i = 1; i < argc; i++)
		if (strcmp(argv[i], name) == 0)
			return 1;
	return 0;
}

int main(int argc, char **argv)
{
	int passed = 0, failed = 0, skipped = 0;

	for (struct unit_test *t = tests; t; t = t->next) {
		if (!selected(t->name, argc, argv))
			continue;
		unit_failures = 0;
		unit_skipped = NULL;
		t->fn();
		if (unit_skipped && !unit_failures) {
			printf("SKIP unit/%s (%s)\n", t->name, unit_skipped);
			skipped++;
		} else if (unit_failures) {
			printf("FAIL unit/%s\n", t->name);
			failed++;
		} else {
			printf("PASS unit/%s\n", t->name);
			passed++;
		}
	}
	printf("%d passed, %d failed, %d skipped\n", passed, failed, skipped);
	return failed ? 1 : 0;
}
