/*
 * unit_main.c -- run every registered unit test, in name order, and print
 * "N passed, N failed".  `build/unit-tests NAME...` runs only those named.
 */
#include "test.h"

#include <stdlib.h>

static struct unit_test *tests;
int unit_failures;

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
	int passed = 0, failed = 0;

	for (struct unit_test *t = tests; t; t = t->next) {
		if (!selected(t->name, argc, argv))
			continue;
		unit_failures = 0;
		t->fn();
		if (unit_failures) {
			printf("FAIL unit/%s\n", t->name);
			failed++;
		} else {
			printf("PASS unit/%s\n", t->name);
			passed++;
		}
	}
	printf("%d passed, %d failed\n", passed, failed);
	return failed ? 1 : 0;
}
