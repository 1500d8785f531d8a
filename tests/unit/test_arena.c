#include "test.h"

#include "base/arena.h"

TEST(arena_strings_survive_block_growth)
{
	struct arena a = { 0 };
	char *first = arena_strdup(&a, "first");

	for (int i = 0; i < 10000; i++)
		arena_alloc(&a, 100);
	char *big = arena_alloc(&a, 200000);
	big[199999] = 'x';
	CHECK_STR(first, "first");
	CHECK_STR(arena_printf(&a, "%s-%d", "n", 42), "n-42");
	arena_free(&a);
	CHECK(a.head == NULL);
}
